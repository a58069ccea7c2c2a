# expect: exception
# error: TypeError
import builtins
builtins.__import__ = None
import json
