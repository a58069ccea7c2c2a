# expect: ok
# timeout: 30
for i in range(1_000_000):
    print(i)
