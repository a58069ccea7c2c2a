# expect: exception
# status: 130
# error: KeyboardInterrupt
raise KeyboardInterrupt
