# expect: exception
import builtins
del builtins.len
len([1])
