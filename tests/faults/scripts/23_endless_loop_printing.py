# expect: timeout
n = 0
while True:
    n += 1
    if n % 100000 == 0:
        print(n)
