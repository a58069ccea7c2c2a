# expect: exception
# error: ZeroDivisionError
# message: division by zero
print(1 / 0)
