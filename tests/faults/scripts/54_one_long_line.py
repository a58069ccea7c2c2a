# expect: ok
print("=" * 300_000)
print("after")
