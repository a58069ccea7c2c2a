# In the style of: pytorch/examples' time_sequence_prediction (two LSTMCells unrolled over sine
# waves in float64, trained with LBFGS, then predicting the future)
# Family: pytorch-examples
import torch
import torch.nn as nn


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 8)
        self.lstm2 = nn.LSTMCell(8, 8)
        self.linear = nn.Linear(8, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 8, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 8, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 8, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 8, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


torch.manual_seed(0)
x = torch.arange(12, dtype=torch.double).unsqueeze(0) + torch.tensor([[0.0], [3.0], [5.0]],
                                                                     dtype=torch.double)
data = torch.sin(x / 2.0)
input, target = data[:, :-1], data[:, 1:]
seq = Sequence().double()
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8, max_iter=5)
for i in range(2):
    def closure():
        optimizer.zero_grad()
        loss = criterion(seq(input), target)
        loss.backward()
        return loss
    loss = optimizer.step(closure)
    print(f"STEP {i} loss: {loss.item():.6f}")
with torch.no_grad():
    pred = seq(input[:1], future=3)
print(pred.shape, [round(v, 4) for v in pred[0, -3:].tolist()])
