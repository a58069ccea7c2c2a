# In the style of: pytorch/examples' gcn (GraphConv with an uninitialised torch.Tensor kernel and
# xavier_normal_, torch.sparse_coo_tensor adjacency plus self-loops, D^-1/2 A D^-1/2 with sparse
# diagonals, to_sparse features, torch.mm / torch.spmm, NLLLoss on index masks, Adam weight_decay)
# Family: pytorch-examples
import torch
from torch import nn
import torch.nn.functional as F
from torch.optim import Adam


class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, use_bias=False):
        super(GraphConv, self).__init__()

        # Initialize the weight matrix W (in this case called `kernel`)
        self.kernel = nn.Parameter(torch.Tensor(input_dim, output_dim))
        nn.init.xavier_normal_(self.kernel)  # Initialize the weights using Xavier initialization

        # Initialize the bias (if use_bias is True)
        self.bias = None
        if use_bias:
            self.bias = nn.Parameter(torch.Tensor(output_dim))
            nn.init.zeros_(self.bias)  # Initialize the bias to zeros

    def forward(self, input_tensor, adj_mat):
        support = torch.mm(input_tensor, self.kernel)  # input times weight matrix
        output = torch.spmm(adj_mat, support)  # sparse adjacency times support
        if self.bias is not None:
            output = output + self.bias

        return output


class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, use_bias=True, dropout_p=0.1):
        super(GCN, self).__init__()

        self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
        self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input_tensor, adj_mat):
        x = self.gc1(input_tensor, adj_mat)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.gc2(x, adj_mat)
        return F.log_softmax(x, dim=1)


def load_graph():
    """A tiny synthetic "Cora": bag-of-words features, citation edges, two classes."""
    features = torch.bernoulli(torch.full((8, 6), 0.4))
    features[3] = 0.0  # a paper with no words
    scale_vector = torch.sum(features, dim=1)
    scale_vector = 1 / scale_vector
    scale_vector[scale_vector == float('inf')] = 0
    scale_vector = torch.diag(scale_vector).to_sparse()
    features = scale_vector @ features

    labels = torch.LongTensor([0, 0, 0, 1, 1, 1, 0, 1])

    edges = torch.tensor([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [6, 0], [7, 4], [2, 5]])
    V = 8
    E = edges.shape[0]
    adj_mat = torch.sparse_coo_tensor(edges.T, torch.ones(E), (V, V), dtype=torch.int64,
                                      check_invariants=True)
    adj_mat = torch.eye(V) + adj_mat  # add self-loops

    degree_mat = torch.sum(adj_mat, dim=1)
    degree_mat = torch.sqrt(1 / degree_mat)
    degree_mat[degree_mat == float('inf')] = 0
    degree_mat = torch.diag(degree_mat).to_sparse()

    adj_mat = degree_mat @ adj_mat @ degree_mat  # the renormalization trick

    return features.to_sparse(), labels, adj_mat.to_sparse()


def train_iter(epoch, model, optimizer, criterion, input, target, mask_train, mask_val,
               print_every=10):
    model.train()
    optimizer.zero_grad()

    output = model(*input)
    loss = criterion(output[mask_train], target[mask_train])

    loss.backward()
    optimizer.step()

    loss_train, acc_train = test(model, criterion, input, target, mask_train)
    loss_val, acc_val = test(model, criterion, input, target, mask_val)

    if epoch % print_every == 0:
        print(f'Epoch: {epoch:04d} loss_train: {loss_train:.4f} acc_train: {acc_train:.4f} '
              f'loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}')


def test(model, criterion, input, target, mask):
    model.eval()
    with torch.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]

        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
    return loss.item(), acc.item()


torch.manual_seed(42)
features, labels, adj_mat = load_graph()
print(features.layout, adj_mat.layout, adj_mat.shape, adj_mat._nnz())
print(adj_mat.to_dense()[:3])
idx = torch.randperm(len(labels))
idx_test, idx_val, idx_train = idx[:2], idx[2:4], idx[4:]
print(idx_train)

gcn = GCN(features.shape[1], 4, labels.max().item() + 1, True, 0.5)
optimizer = Adam(gcn.parameters(), lr=0.05, weight_decay=5e-4)
criterion = nn.NLLLoss()

for epoch in range(8):
    train_iter(epoch + 1, gcn, optimizer, criterion, (features, adj_mat), labels, idx_train,
               idx_val, 2)

loss_test, acc_test = test(gcn, criterion, (features, adj_mat), labels, idx_test)
print(f'Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}')
print(gcn.gc1.kernel.grad)
