# expect: exception
# error: ValueError
raise ValueError('x' * 5_000_000)
