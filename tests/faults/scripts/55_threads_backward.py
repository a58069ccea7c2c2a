# expect: ok
import threading
import torch
x = torch.ones(3, requires_grad=True)
def work():
    for _ in range(50):
        (x * 2).sum().backward()
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(x.grad)
