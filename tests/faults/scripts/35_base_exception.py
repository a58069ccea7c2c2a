# expect: exception
# error: GeneratorExit
raise GeneratorExit('odd')
