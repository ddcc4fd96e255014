-- expect: syntax_error.lua:4: '}' expected (to close '{' at line 3)
model.new{dim = 2}
ball.create{id = 1, rad = 0.5, pos = {0, 0}
print("never reached")
