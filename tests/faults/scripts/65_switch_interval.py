# expect: ok
import sys
sys.setswitchinterval(100.0)
print("the interpreter switches threads every 100 s now")
