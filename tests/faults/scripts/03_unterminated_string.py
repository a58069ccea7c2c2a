# expect: syntax
# error: SyntaxError
s = 'never closed
