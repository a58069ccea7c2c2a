# expect: exception
# error: ModuleNotFoundError
import sys
sys.modules["torch"] = None
import torch
