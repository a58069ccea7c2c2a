# expect: crash
# message: crashed
import ctypes
ctypes.string_at(0)
