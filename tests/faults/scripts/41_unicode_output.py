# expect: ok
print('∂L/∂w → ✓', '\u2603', 'e\u0301')
