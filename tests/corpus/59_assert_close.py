# In the style of: unit tests of custom layers that compare against a reference with
# torch.testing.assert_close and print its report when they differ
# Family: blogs-and-qa
import torch
from torch.testing import assert_close

torch.manual_seed(5)
layer = torch.nn.Linear(4, 2)
x = torch.randn(3, 4)
manual = x @ layer.weight.T + layer.bias
assert_close(layer(x), manual)
print("linear matches")
for actual, expected in [(manual, manual + 1e-3), (manual.double(), manual),
                         (torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])),
                         ([manual, manual], [manual, manual * 2])]:
    try:
        assert_close(actual, expected)
    except AssertionError as error:
        print(str(error).replace(" at index", "\n    at index"))
assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
print("nan ok")
