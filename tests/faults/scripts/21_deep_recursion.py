# expect: exception
# error: RecursionError
# message: maximum recursion depth exceeded
def down(n):
    return down(n + 1)
down(0)
