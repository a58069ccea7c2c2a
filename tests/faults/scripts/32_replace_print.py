# expect: ok
import builtins
builtins.print = lambda *a, **k: None
print('swallowed')
