# expect: ok
print("before\0after \x1b[31mred\x1b[0m \r\ncarriage", end="")
print("\udcff".encode("utf-8", "surrogateescape"))
print("é ✓ 🙂")
