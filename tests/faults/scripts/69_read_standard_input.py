# expect: ok
import sys
print(repr(sys.stdin.read()), repr(input.__name__))
