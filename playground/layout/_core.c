/* The layered layout's three hot loops in C: ranking descent, crossing reduction, placement.
 *
 * Optional: layout.py and ranking.py hold the same algorithms in Python, run them when this
 * module did not build, and the tests compare both on many graphs (same layers, same orders,
 * same crossings, coordinates within rounding). Python's per-step cost made the MLP step 3x
 * and a 1,000-node DAG 2x faster than dot; issue 5 asks for 10x.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

/* ----- conversions ------------------------------------------------------------------------ */

typedef struct {   /* lists of ints, compressed: items of entry i are idx[ptr[i]..ptr[i+1]) */
    Py_ssize_t count;
    Py_ssize_t *ptr;
    int *idx;
} Lists;

/* Free every block listed (PyMem_RawFree ignores NULL: blocks never allocated). */
static void free_blocks(void *const *blocks, size_t count)
{
    for (size_t i = 0; i < count; i++)
        PyMem_RawFree(blocks[i]);
}

#define FREE_ALL(...)                                                                  \
    do {                                                                               \
        void *const blocks_[] = {__VA_ARGS__};                                         \
        free_blocks(blocks_, sizeof(blocks_) / sizeof(blocks_[0]));                    \
    } while (0)

static void lists_free(Lists *lists)
{
    PyMem_RawFree(lists->ptr);
    PyMem_RawFree(lists->idx);
    lists->ptr = NULL;
    lists->idx = NULL;
}

static int lists_from(PyObject *object, Lists *out)
{
    out->ptr = NULL;
    out->idx = NULL;
    if (!PyList_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "expected a list of lists of ints");
        return -1;
    }
    Py_ssize_t count = PyList_GET_SIZE(object), total = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *items = PyList_GET_ITEM(object, i);
        if (!PyList_Check(items)) {
            PyErr_SetString(PyExc_TypeError, "expected a list of lists of ints");
            return -1;
        }
        total += PyList_GET_SIZE(items);
    }
    out->count = count;
    out->ptr = PyMem_RawMalloc(sizeof(Py_ssize_t) * (count + 1));
    out->idx = PyMem_RawMalloc(sizeof(int) * (total ? total : 1));
    if (!out->ptr || !out->idx) {
        lists_free(out);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *items = PyList_GET_ITEM(object, i);
        out->ptr[i] = k;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(items); j++) {
            long value = PyLong_AsLong(PyList_GET_ITEM(items, j));
            if (value == -1 && PyErr_Occurred()) {
                lists_free(out);
                return -1;
            }
            out->idx[k++] = (int)value;
        }
    }
    out->ptr[count] = k;
    return 0;
}

/* A run's layers and every node's neighbours above and below, as compressed lists. */
static int layered_from(PyObject *order, PyObject *up, PyObject *down, Lists *layers,
                        Lists *above, Lists *below)
{
    if (lists_from(order, layers) < 0 || lists_from(up, above) < 0)
        return -1;
    return lists_from(down, below);
}

static void layered_free(Lists *layers, Lists *above, Lists *below)
{
    lists_free(layers);
    lists_free(above);
    lists_free(below);
}

static PyObject *lists_to(const Lists *lists)
{
    PyObject *result = PyList_New(lists->count);
    if (!result)
        return NULL;
    for (Py_ssize_t i = 0; i < lists->count; i++) {
        Py_ssize_t size = lists->ptr[i + 1] - lists->ptr[i];
        PyObject *items = PyList_New(size);
        if (!items) {
            Py_DECREF(result);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < size; j++) {
            PyObject *value = PyLong_FromLong(lists->idx[lists->ptr[i] + j]);
            if (!value) {
                Py_DECREF(items);
                Py_DECREF(result);
                return NULL;
            }
            PyList_SET_ITEM(items, j, value);
        }
        PyList_SET_ITEM(result, i, items);
    }
    return result;
}

static int *ints_from(PyObject *object, Py_ssize_t *count)
{
    if (!PyList_Check(object)) {
        PyErr_SetString(PyExc_TypeError, "expected a list of ints");
        return NULL;
    }
    *count = PyList_GET_SIZE(object);
    int *values = PyMem_RawMalloc(sizeof(int) * (*count ? *count : 1));
    if (!values) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        long value = PyLong_AsLong(PyList_GET_ITEM(object, i));
        if (value == -1 && PyErr_Occurred()) {
            PyMem_RawFree(values);
            return NULL;
        }
        values[i] = (int)value;
    }
    return values;
}

static PyObject *ints_to(const int *values, Py_ssize_t count)
{
    PyObject *result = PyList_New(count);
    for (Py_ssize_t i = 0; result && i < count; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (!value) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, value);
    }
    return result;
}

/* ----- 1. ranking: steepest descent by minimum cuts (ranking.py's _descend) ------------------ */

typedef struct {   /* a flow network; arc a ^ 1 is the reverse of arc a */
    int nodes, arcs;
    int *head, *next, *first;
    long long *capacity;
    int *level, *cursor, *queue, *path;
} Network;

static int network_init(Network *net, int nodes, int arcs)
{
    net->nodes = nodes;
    net->arcs = 0;
    net->head = PyMem_RawMalloc(sizeof(int) * 2 * (arcs ? arcs : 1));
    net->next = PyMem_RawMalloc(sizeof(int) * 2 * (arcs ? arcs : 1));
    net->capacity = PyMem_RawMalloc(sizeof(long long) * 2 * (arcs ? arcs : 1));
    net->first = PyMem_RawMalloc(sizeof(int) * nodes);
    net->level = PyMem_RawMalloc(sizeof(int) * nodes);
    net->cursor = PyMem_RawMalloc(sizeof(int) * nodes);
    net->queue = PyMem_RawMalloc(sizeof(int) * nodes);
    net->path = PyMem_RawMalloc(sizeof(int) * nodes);
    if (!net->head || !net->next || !net->capacity || !net->first || !net->level ||
        !net->cursor || !net->queue || !net->path)
        return -1;
    for (int v = 0; v < nodes; v++)
        net->first[v] = -1;
    return 0;
}

static void network_free(Network *net)
{
    FREE_ALL(net->head, net->next, net->capacity, net->first, net->level, net->cursor, net->queue,
             net->path);
}

static void network_link(Network *net, int a, int b, long long amount)
{
    int arc = net->arcs;
    net->head[arc] = b;
    net->capacity[arc] = amount;
    net->next[arc] = net->first[a];
    net->first[a] = arc;
    net->head[arc + 1] = a;
    net->capacity[arc + 1] = 0;
    net->next[arc + 1] = net->first[b];
    net->first[b] = arc + 1;
    net->arcs += 2;
}

static int network_levels(Network *net, int source, int sink)
{
    for (int v = 0; v < net->nodes; v++)
        net->level[v] = -1;
    int head = 0, tail = 0;
    net->level[source] = 0;
    net->queue[tail++] = source;
    while (head < tail) {
        int v = net->queue[head++];
        if (net->level[sink] >= 0 && net->level[sink] <= net->level[v])
            break;  /* nothing further is on a shortest path */
        for (int arc = net->first[v]; arc >= 0; arc = net->next[arc]) {
            int w = net->head[arc];
            if (net->level[w] < 0 && net->capacity[arc] > 0) {
                net->level[w] = net->level[v] + 1;
                net->queue[tail++] = w;
            }
        }
    }
    return net->level[sink] >= 0;
}

/* Saturate every shortest augmenting path (a blocking flow), depth first, without recursion. */
static void network_block(Network *net, int source, int sink)
{
    int *path = net->path, depth = 0, v = source;
    for (int w = 0; w < net->nodes; w++)
        net->cursor[w] = net->first[w];
    for (;;) {
        if (v == sink) {
            long long amount = net->capacity[path[0]];
            for (int i = 1; i < depth; i++)
                if (net->capacity[path[i]] < amount)
                    amount = net->capacity[path[i]];
            for (int i = 0; i < depth; i++) {
                net->capacity[path[i]] -= amount;
                net->capacity[path[i] ^ 1] += amount;
            }
            depth = 0;  /* restart from the source; saturated arcs fail the test below */
            v = source;
            continue;
        }
        int arc;
        while ((arc = net->cursor[v]) >= 0) {
            if (net->capacity[arc] > 0 && net->level[net->head[arc]] == net->level[v] + 1)
                break;
            net->cursor[v] = net->next[arc];
        }
        if (arc >= 0) {  /* advance */
            path[depth++] = arc;
            v = net->head[arc];
        } else if (v == source) {
            return;
        } else {  /* retreat: v is a dead end in this phase */
            net->level[v] = -1;
            v = net->head[path[--depth] ^ 1];
            net->cursor[v] = net->next[net->cursor[v]];
        }
    }
}

/* The set X of least weight (if negative) closed under the arcs (a in X implies b in X):
 * the source side of a minimum cut. Returns the number of members written to `members`. */
static int cheapest_closed_set(int count, const long long *weight, int arcs, const int *tails,
                               const int *heads, int *members, long long *total, int *failed)
{
    Network net;
    int source = count, sink = count + 1;
    long long unbounded = 1;
    for (int v = 0; v < count; v++)
        unbounded += weight[v] < 0 ? -weight[v] : weight[v];
    if (network_init(&net, count + 2, count + arcs) < 0) {
        network_free(&net);
        *failed = 1;
        return 0;
    }
    for (int v = 0; v < count; v++) {
        if (weight[v] < 0)
            network_link(&net, source, v, -weight[v]);
        else if (weight[v] > 0)
            network_link(&net, v, sink, weight[v]);
    }
    for (int e = 0; e < arcs; e++)
        network_link(&net, tails[e], heads[e], unbounded);
    while (network_levels(&net, source, sink)) {
        network_block(&net, source, sink);
    }
    int size = 0;
    *total = 0;
    for (int v = 0; v < count; v++) {
        if (net.level[v] >= 0) {
            members[size++] = v;
            *total += weight[v];
        }
    }
    network_free(&net);
    if (*total >= 0) {
        *total = 0;
        return 0;
    }
    return size;
}

static int find_root(int *label, int v)
{
    while (label[v] != v) {
        label[v] = label[label[v]];
        v = label[v];
    }
    return v;
}

/* Move each part of the set (joined by no edge) as far as the edges it shortens allow. */
static void move_apart(int count, const int *moved, int size, int step, Py_ssize_t edges,
                       const int *sources, const int *targets, int *layer, int *local,
                       int *label, int *room)
{
    for (int v = 0; v < count; v++)
        local[v] = -1;
    for (int i = 0; i < size; i++) {
        local[moved[i]] = i;
        label[i] = i;
        room[i] = -1;
    }
    for (Py_ssize_t e = 0; e < edges; e++) {
        int a = local[sources[e]], b = local[targets[e]];
        if (a >= 0 && b >= 0) {
            int ra = find_root(label, a), rb = find_root(label, b);
            if (ra != rb)
                label[ra] = rb;
        }
    }
    for (Py_ssize_t e = 0; e < edges; e++) {
        int a = local[sources[e]], b = local[targets[e]];
        if ((a >= 0) == (b >= 0) || (a >= 0) != (step == 1))
            continue;
        int part = find_root(label, step == 1 ? a : b);
        int slack = layer[targets[e]] - layer[sources[e]] - 1;
        if (room[part] < 0 || slack < room[part])
            room[part] = slack;
    }
    for (int i = 0; i < size; i++) {
        int part = find_root(label, i);
        layer[moved[i]] += step * (room[part] < 0 ? 1 : room[part]);
    }
}

typedef struct {   /* the descent's arrays */
    int count;
    Py_ssize_t edges;
    int *sources, *targets, *layer;
    long long *weight, *flipped;
    int *tails, *heads, *down, *up, *scratch;
} Descent;

/* Steepest descent until no set of nodes gains by moving; -1 when memory ran out. */
static int descend_layers(Descent *d)
{
    for (int v = 0; v < d->count; v++)
        d->weight[v] = 0;
    for (Py_ssize_t e = 0; e < d->edges; e++) {
        d->weight[d->targets[e]] += 1;
        d->weight[d->sources[e]] -= 1;
    }
    for (int v = 0; v < d->count; v++)
        d->flipped[v] = -d->weight[v];
    for (;;) {
        int tight = 0, failed = 0;
        for (Py_ssize_t e = 0; e < d->edges; e++) {
            if (d->layer[d->targets[e]] - d->layer[d->sources[e]] == 1) {
                d->tails[tight] = d->sources[e];
                d->heads[tight++] = d->targets[e];
            }
        }
        long long down_gain, up_gain;
        int down_size = cheapest_closed_set(d->count, d->weight, tight, d->tails, d->heads,
                                            d->down, &down_gain, &failed);
        int up_size = cheapest_closed_set(d->count, d->flipped, tight, d->heads, d->tails,
                                          d->up, &up_gain, &failed);
        if (failed)
            return -1;
        if (!down_size && !up_size)
            return 0;
        int use_down = down_gain <= up_gain;
        move_apart(d->count, use_down ? d->down : d->up, use_down ? down_size : up_size,
                   use_down ? 1 : -1, d->edges, d->sources, d->targets, d->layer, d->scratch,
                   d->scratch + d->count, d->scratch + 2 * d->count);
    }
}

/* Shift a layering so that its top layer is 0. */
static void from_zero(int *layer, int count)
{
    int lowest = count ? layer[0] : 0;
    for (int v = 1; v < count; v++)
        if (layer[v] < lowest)
            lowest = layer[v];
    for (int v = 0; v < count; v++)
        layer[v] -= lowest;
}

/* Read (count, sources, targets, layer), checking that every edge is in range. */
static int read_edges(PyObject *args, int *count, Py_ssize_t *edges, int **sources,
                      int **targets, int **layer)
{
    PyObject *source_list, *target_list, *layer_list;
    Py_ssize_t other, layers;
    *sources = *targets = *layer = NULL;
    if (!PyArg_ParseTuple(args, "iO!O!O!", count, &PyList_Type, &source_list, &PyList_Type,
                          &target_list, &PyList_Type, &layer_list))
        return -1;
    if (!(*sources = ints_from(source_list, edges)) ||
        !(*targets = ints_from(target_list, &other)) || !(*layer = ints_from(layer_list, &layers)))
        return -1;
    if (*edges != other || layers != *count || *count < 1) {
        PyErr_SetString(PyExc_ValueError, "sources, targets and layer do not match");
        return -1;
    }
    for (Py_ssize_t e = 0; e < *edges; e++) {
        int s = (*sources)[e], t = (*targets)[e];
        if (s < 0 || s >= *count || t < 0 || t >= *count || (*layer)[t] - (*layer)[s] < 1) {
            PyErr_SetString(PyExc_ValueError, "an edge is out of range or not pointing down");
            return -1;
        }
    }
    return 0;
}

static PyObject *descend(PyObject *self, PyObject *args)
{
    Descent d;
    memset(&d, 0, sizeof(d));
    PyObject *result = NULL;
    if (read_edges(args, &d.count, &d.edges, &d.sources, &d.targets, &d.layer) < 0)
        goto done;
    d.weight = PyMem_RawMalloc(sizeof(long long) * 2 * d.count);
    d.flipped = d.weight ? d.weight + d.count : NULL;
    d.tails = PyMem_RawMalloc(sizeof(int) * (d.edges + 1));
    d.heads = PyMem_RawMalloc(sizeof(int) * (d.edges + 1));
    d.down = PyMem_RawMalloc(sizeof(int) * d.count);
    d.up = PyMem_RawMalloc(sizeof(int) * d.count);
    d.scratch = PyMem_RawMalloc(sizeof(int) * 3 * d.count);
    if (!d.weight || !d.tails || !d.heads || !d.down || !d.up || !d.scratch) {
        PyErr_NoMemory();
        goto done;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = descend_layers(&d);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    from_zero(d.layer, d.count);
    result = ints_to(d.layer, d.count);
done:
    FREE_ALL(d.sources, d.targets, d.layer, d.weight, d.tails, d.heads, d.down, d.up,
             d.scratch);
    return result;
}

/* ----- 1b. ranking: network simplex (dot's), on a spanning tree of tight edges -------------
 * With unit edge weights a tree edge's cut value is the sum of (edges in - edges out) over
 * the subtree below it, with a sign for its direction: one depth-first pass gives them all.
 * A pivot swaps a tree edge of negative cut value for the non-tree edge of least slack that
 * crosses the same cut the other way, shifting one side to make that edge tight. */

typedef struct {
    int count;
    Py_ssize_t edges;
    const int *sources, *targets;
    int *layer, *weight;
    Py_ssize_t *incident_ptr;  /* edges at each node, both directions */
    int *incident;
    char *in_tree, *tree_edge;
    int *parent_edge, *size, *mark, *stack, *cursor;
    long long *subtree;
} Simplex;

static int slack_of(const Simplex *x, Py_ssize_t e)
{
    return x->layer[x->targets[e]] - x->layer[x->sources[e]] - 1;
}

static int other_end(const Simplex *x, Py_ssize_t e, int v)
{
    return x->sources[e] == v ? x->targets[e] : x->sources[e];
}

/* Add nodes reachable from `start` over tight edges to the tree. Returns how many. */
static int grow_tight(Simplex *x, int start)
{
    int top = 0, added = 0;
    x->stack[top++] = start;
    while (top) {
        int v = x->stack[--top];
        for (Py_ssize_t i = x->incident_ptr[v]; i < x->incident_ptr[v + 1]; i++) {
            int e = x->incident[i], w = other_end(x, e, v);
            if (!x->in_tree[w] && slack_of(x, e) == 0) {
                x->in_tree[w] = 1;
                x->tree_edge[e] = 1;
                x->stack[top++] = w;
                added++;
            }
        }
    }
    return added;
}

/* A spanning tree of tight edges, shifting the tree grown so far onto the nearest node. */
static int feasible_tree(Simplex *x)
{
    x->in_tree[0] = 1;
    int size = 1 + grow_tight(x, 0);
    while (size < x->count) {
        Py_ssize_t best = -1;
        int best_slack = 0;
        for (Py_ssize_t e = 0; e < x->edges; e++) {
            if (x->in_tree[x->sources[e]] == x->in_tree[x->targets[e]])
                continue;
            int slack = slack_of(x, e);
            if (best < 0 || slack < best_slack) {
                best = e;
                best_slack = slack;
            }
        }
        if (best < 0)
            return -1;  /* disconnected */
        int delta = x->in_tree[x->sources[best]] ? best_slack : -best_slack;
        for (int v = 0; v < x->count; v++)
            if (x->in_tree[v])
                x->layer[v] += delta;
        int outside = x->in_tree[x->sources[best]] ? x->targets[best] : x->sources[best];
        x->in_tree[outside] = 1;
        x->tree_edge[best] = 1;
        size += 1 + grow_tight(x, outside);
    }
    return 0;
}

/* Parent edges and subtree sums (weights and sizes) of the whole tree, rooted at node 0. */
static void root_tree(Simplex *x)
{
    int top = 0;
    x->parent_edge[0] = -1;
    x->stack[top++] = 0;
    x->cursor[0] = (int)x->incident_ptr[0];
    x->subtree[0] = x->weight[0];
    x->size[0] = 1;
    while (top) {
        int v = x->stack[top - 1];
        if (x->cursor[v] < x->incident_ptr[v + 1]) {
            int e = x->incident[x->cursor[v]++];
            if (!x->tree_edge[e] || e == x->parent_edge[v])
                continue;
            int w = other_end(x, e, v);
            x->parent_edge[w] = e;
            x->cursor[w] = (int)x->incident_ptr[w];
            x->subtree[w] = x->weight[w];
            x->size[w] = 1;
            x->stack[top++] = w;
        } else if (--top) {
            x->subtree[x->stack[top - 1]] += x->subtree[v];
            x->size[x->stack[top - 1]] += x->size[v];
        }
    }
}

/* Mark the tree's side of `start` once `cut` is removed, listing it in `members`
 * (breadth first, the list its own queue); returns how many there are. */
static int mark_side(Simplex *x, int start, int cut, int stamp, int *members)
{
    int count = 1;
    x->mark[start] = stamp;
    members[0] = start;
    for (int k = 0; k < count; k++) {
        int v = members[k];
        for (Py_ssize_t i = x->incident_ptr[v]; i < x->incident_ptr[v + 1]; i++) {
            int e = x->incident[i], w = other_end(x, e, v);
            if (x->tree_edge[e] && e != cut && x->mark[w] != stamp) {
                x->mark[w] = stamp;
                members[count++] = w;
            }
        }
    }
    return count;
}

static int parent_of(const Simplex *x, int v)
{
    return other_end(x, x->parent_edge[v], v);
}

/* The lowest common ancestor of p and b: both walk up in turns, marking, until one meets
 * the other's trail; costs the two distances, not the depth. */
static int common_ancestor(Simplex *x, int p, int b, int stamp)
{
    int walkers[2] = {p, b};
    x->mark[p] = stamp;
    x->mark[b] = stamp + 1;
    if (p == b)
        return p;
    for (int turn = 0;; turn ^= 1) {
        int v = walkers[turn];
        if (x->parent_edge[v] < 0)
            continue;  /* at the root: the other walker will get here */
        v = parent_of(x, v);
        if (x->mark[v] == stamp + (turn ^ 1))
            return v;
        x->mark[v] = stamp + turn;
        walkers[turn] = v;
    }
}

#define SEARCH_SIZE 30  /* negative cut values compared per pivot, as in dot */

static int simplex_solve(Simplex *x, long long max_pivots)
{
    if (feasible_tree(x) < 0)
        return -1;
    root_tree(x);
    int scan = 0, stamp = 0;
    for (long long pivot = 0;; pivot++) {
        /* leaving edge: the most negative cut value among the next few negative ones,
         * searching on from the last (dot's search size) */
        int child = -1, found = 0;
        long long most = 0;
        for (int k = 0; k < x->count && found < SEARCH_SIZE; k++) {
            int v = (scan + k) % x->count;
            int e = x->parent_edge[v];
            if (e < 0)
                continue;
            long long cut = x->sources[e] == v ? -x->subtree[v] : x->subtree[v];
            if (cut < 0) {
                found++;
                if (cut < most) {
                    most = cut;
                    child = v;
                }
                scan = (v + 1) % x->count;
            }
        }
        if (child < 0)
            return 0;  /* every cut value >= 0: optimal */
        if (pivot >= max_pivots)
            return -1;
        int leaving = x->parent_edge[child], above = parent_of(x, child);
        int below_is_tail = x->sources[leaving] == child;  /* the subtree is the tail side */
        /* work on the smaller side of the cut: every crossing edge has an end there */
        int marked_below = 2 * x->size[child] <= x->count;
        stamp += 3;
        int *side = x->cursor;  /* free after rooting */
        int marked = mark_side(x, marked_below ? child : above, leaving, stamp, side);
        /* entering edge: least slack from the head side to the tail side (lowest number) */
        Py_ssize_t entering = -1;
        int best_slack = 0;
        for (int k = 0; k < marked; k++) {
            int v = side[k];
            for (Py_ssize_t i = x->incident_ptr[v]; i < x->incident_ptr[v + 1]; i++) {
                int e = x->incident[i];
                if (x->tree_edge[e])
                    continue;
                int tail_below = (x->mark[x->sources[e]] == stamp) == marked_below;
                int head_below = (x->mark[x->targets[e]] == stamp) == marked_below;
                if (tail_below == head_below || tail_below == below_is_tail)
                    continue;
                int slack = slack_of(x, e);
                if (entering < 0 || slack < best_slack || (slack == best_slack && e < entering)) {
                    entering = e;
                    best_slack = slack;
                }
            }
        }
        if (entering < 0)
            return -1;  /* cannot happen in a connected graph with a negative cut */
        /* the head side moves down (or the tail side up) until the entering edge is tight;
         * only the difference matters, so the marked side moves */
        int delta = below_is_tail ? -best_slack : best_slack;
        if (!marked_below)
            delta = -delta;
        for (int k = 0; k < marked; k++)
            x->layer[side[k]] += delta;
        /* re-hang the subtree from the entering edge's end below the cut */
        int inside = (x->mark[x->sources[entering]] == stamp) == marked_below
                         ? x->sources[entering] : x->targets[entering];
        int outside = other_end(x, entering, inside);
        int top = common_ancestor(x, above, outside, stamp + 1);
        long long moved_weight = x->subtree[child];
        int moved_size = x->size[child];
        for (int v = above; v != top; v = parent_of(x, v)) {
            x->subtree[v] -= moved_weight;
            x->size[v] -= moved_size;
        }
        for (int v = outside; v != top; v = parent_of(x, v)) {
            x->subtree[v] += moved_weight;
            x->size[v] += moved_size;
        }
        long long weight_now = moved_weight;
        int size_now = moved_size, edge_now = (int)entering;
        for (int v = inside;;) {
            int old_edge = x->parent_edge[v];
            long long old_weight = x->subtree[v];
            int old_size = x->size[v];
            x->parent_edge[v] = edge_now;
            x->subtree[v] = weight_now;
            x->size[v] = size_now;
            if (v == child)
                break;
            weight_now = moved_weight - old_weight;
            size_now = moved_size - old_size;
            edge_now = old_edge;
            v = other_end(x, old_edge, v);
        }
        x->tree_edge[leaving] = 0;
        x->tree_edge[entering] = 1;
    }
}

/* Each node's edges, both directions, and each node's weight (edges in - edges out). */
static void build_incidence(Simplex *x)
{
    for (Py_ssize_t e = 0; e < x->edges; e++) {
        x->weight[x->targets[e]] += 1;
        x->weight[x->sources[e]] -= 1;
        x->incident_ptr[x->sources[e] + 1]++;
        x->incident_ptr[x->targets[e] + 1]++;
    }
    for (int v = 0; v < x->count; v++)
        x->incident_ptr[v + 1] += x->incident_ptr[v];
    for (int v = 0; v < x->count; v++)
        x->cursor[v] = (int)x->incident_ptr[v];
    for (Py_ssize_t e = 0; e < x->edges; e++) {
        x->incident[x->cursor[x->sources[e]]++] = (int)e;
        x->incident[x->cursor[x->targets[e]]++] = (int)e;
    }
}

static PyObject *simplex(PyObject *self, PyObject *args)
{
    Simplex x;
    memset(&x, 0, sizeof(x));
    int *sources = NULL, *targets = NULL;
    PyObject *result = NULL;
    if (read_edges(args, &x.count, &x.edges, &sources, &targets, &x.layer) < 0)
        goto done;
    x.sources = sources;
    x.targets = targets;
    int count = x.count;
    x.weight = PyMem_RawCalloc(count, sizeof(int));
    x.incident_ptr = PyMem_RawCalloc(count + 1, sizeof(Py_ssize_t));
    x.incident = PyMem_RawMalloc(sizeof(int) * (2 * x.edges + 1));
    x.in_tree = PyMem_RawCalloc(count, 1);
    x.tree_edge = PyMem_RawCalloc(x.edges + 1, 1);
    x.parent_edge = PyMem_RawMalloc(sizeof(int) * count);
    x.size = PyMem_RawMalloc(sizeof(int) * count);
    x.mark = PyMem_RawCalloc(count, sizeof(int));
    x.stack = PyMem_RawMalloc(sizeof(int) * count);
    x.cursor = PyMem_RawMalloc(sizeof(int) * count);
    x.subtree = PyMem_RawMalloc(sizeof(long long) * count);
    if (!x.weight || !x.incident_ptr || !x.incident || !x.in_tree || !x.tree_edge ||
        !x.parent_edge || !x.size || !x.mark || !x.stack || !x.cursor || !x.subtree) {
        PyErr_NoMemory();
        goto done;
    }
    int solved;
    Py_BEGIN_ALLOW_THREADS
    build_incidence(&x);
    solved = simplex_solve(&x, 100LL * count + 1000) == 0;
    Py_END_ALLOW_THREADS
    if (!solved) {
        result = Py_None;  /* disconnected, or too many pivots: the caller descends instead */
        Py_INCREF(result);
        goto done;
    }
    from_zero(x.layer, count);
    result = ints_to(x.layer, count);
done:
    FREE_ALL(sources, targets, x.layer, x.weight, x.incident_ptr, x.incident, x.in_tree,
             x.tree_edge, x.parent_edge, x.size, x.mark, x.stack, x.cursor, x.subtree);
    return result;
}

/* ----- 2. crossing reduction (layout.py's _reduce_crossings and its helpers) ---------------- */

typedef struct {
    Lists order;       /* the layers of one run, each a list of nodes, left to right */
    Lists up, down;    /* every node's neighbours one layer above / below */
    int *position;     /* slot of each node in its layer; 0 outside the run */
    int *fenwick;
    double *keys;
    int *slots, *buffer, *scratch;
    long long *changes, *settled;  /* odd-even transpose: swaps per layer, and when each
                                      (layer, parity) last made none */
} Ordering;

static void positions_from(Ordering *o, const Lists *order)
{
    for (Py_ssize_t level = 0; level < order->count; level++)
        for (Py_ssize_t k = order->ptr[level]; k < order->ptr[level + 1]; k++)
            o->position[order->idx[k]] = (int)(k - order->ptr[level]);
}

/* Crossings between consecutive layers: pairs of segments whose ends are in opposite order. */
static long long total_crossings(Ordering *o, const Lists *order)
{
    positions_from(o, order);
    long long total = 0;
    for (Py_ssize_t level = 0; level + 1 < order->count; level++) {
        Py_ssize_t width = order->ptr[level + 2] - order->ptr[level + 1];
        if (order->ptr[level + 1] - order->ptr[level] < 2 || width < 2)
            continue;
        int *tree = o->fenwick;
        memset(tree, 0, sizeof(int) * (width + 1));
        long long inserted = 0;
        for (Py_ssize_t k = order->ptr[level]; k < order->ptr[level + 1]; k++) {
            int v = order->idx[k];
            for (Py_ssize_t d = o->down.ptr[v]; d < o->down.ptr[v + 1]; d++) {
                long long not_greater = 0;
                for (int i = o->position[o->down.idx[d]] + 1; i > 0; i -= i & -i)
                    not_greater += tree[i];
                total += inserted - not_greater;
            }
            for (Py_ssize_t d = o->down.ptr[v]; d < o->down.ptr[v + 1]; d++) {
                for (int i = o->position[o->down.idx[d]] + 1; i <= width; i += i & -i)
                    tree[i] += 1;
                inserted++;
            }
        }
    }
    return total;
}

static int compare_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The mean of the weighted median and the barycenter of some positions (layout._median). */
static double median_of(Ordering *o, const Lists *near, int v)
{
    Py_ssize_t start = near->ptr[v], count = near->ptr[v + 1] - start;
    if (count == 1)
        return (double)o->position[near->idx[start]];
    int *places = o->scratch;
    long long sum = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        places[i] = o->position[near->idx[start + i]];
        sum += places[i];
    }
    qsort(places, count, sizeof(int), compare_int);
    Py_ssize_t middle = count / 2;
    double median;
    if (count % 2)
        median = (double)places[middle];
    else if (count == 2)
        median = (double)(places[0] + places[1]) / 2;
    else {
        long long left = places[middle - 1] - places[0], right = places[count - 1] - places[middle];
        median = left + right == 0
                     ? (double)(places[middle - 1] + places[middle]) / 2
                     : (double)(places[middle - 1] * right + places[middle] * left) /
                           (double)(left + right);
    }
    return (median + (double)sum / (double)count) / 2;
}

/* Sort slots (given in increasing order) by their keys, ties keeping slot order: a stable
 * bottom-up merge sort, using `buffer` of the same length. */
static void sort_slots(int *slots, int *buffer, int count, const double *keys)
{
    int *from = slots, *to = buffer;
    for (int width = 1; width < count; width *= 2) {
        for (int low = 0; low < count; low += 2 * width) {
            int middle = low + width < count ? low + width : count;
            int high = low + 2 * width < count ? low + 2 * width : count;
            int left = low, right = middle, k = low;
            while (left < middle && right < high)
                to[k++] = keys[from[right]] < keys[from[left]] ? from[right++] : from[left++];
            while (left < middle)
                to[k++] = from[left++];
            while (right < high)
                to[k++] = from[right++];
        }
        int *swap = from;
        from = to;
        to = swap;
    }
    if (from != slots)
        memcpy(slots, from, sizeof(int) * count);
}

static void median_sweep(Ordering *o, Lists *order, int downward)
{
    positions_from(o, order);
    const Lists *near = downward ? &o->up : &o->down;
    Py_ssize_t layers = order->count;
    for (Py_ssize_t step = 1; step < layers; step++) {
        Py_ssize_t level = downward ? step : layers - 1 - step;
        Py_ssize_t start = order->ptr[level], width = order->ptr[level + 1] - start;
        if (width < 2)
            continue;
        int *members = order->idx + start;
        int keyed = 0;
        for (Py_ssize_t slot = 0; slot < width; slot++) {
            int v = members[slot];
            if (near->ptr[v + 1] > near->ptr[v]) {
                o->keys[slot] = median_of(o, near, v);
                o->slots[keyed++] = (int)slot;
            }
        }
        if (!keyed)
            continue;
        sort_slots(o->slots, o->buffer, keyed, o->keys);
        /* nodes without a neighbour on that side keep their slot; the others take the rest */
        int *moved = o->scratch, next = 0;
        for (Py_ssize_t slot = 0; slot < width; slot++)
            moved[slot] = members[slot];
        for (Py_ssize_t slot = 0; slot < width; slot++) {
            int v = moved[slot];
            if (near->ptr[v + 1] > near->ptr[v])
                members[slot] = moved[o->slots[next++]];
        }
        for (Py_ssize_t slot = 0; slot < width; slot++)
            o->position[members[slot]] = (int)slot;
    }
}

/* Crossings removed, on one side, by swapping neighbours u (left) and v (right). */
static long long pair_gain(Ordering *o, const Lists *near, int u, int v)
{
    long long gain = 0;
    for (Py_ssize_t i = near->ptr[u]; i < near->ptr[u + 1]; i++) {
        int a = o->position[near->idx[i]];
        for (Py_ssize_t j = near->ptr[v]; j < near->ptr[v + 1]; j++) {
            int b = o->position[near->idx[j]];
            gain += (a > b) - (a < b);
        }
    }
    return gain;
}

static int has_neighbours(Ordering *o, int v)
{
    return o->up.ptr[v + 1] > o->up.ptr[v] || o->down.ptr[v + 1] > o->down.ptr[v];
}

/* Swap members i and i + 1 when that removes crossings (or, with swap_ties, leaves them as
 * they are and the left one has neighbours). Returns 1 if it swapped, 2 if that removed any. */
static int swap_if_better(Ordering *o, int *members, Py_ssize_t i, int swap_ties)
{
    int u = members[i], v = members[i + 1];
    long long gain = pair_gain(o, &o->up, u, v) + pair_gain(o, &o->down, u, v);
    if (gain < 0 || (gain == 0 && !(swap_ties && has_neighbours(o, u))))
        return 0;
    members[i] = v;
    members[i + 1] = u;
    o->position[u] += 1;
    o->position[v] -= 1;
    return gain > 0 ? 2 : 1;
}

static int transpose_layer(Ordering *o, int *members, Py_ssize_t width, int swap_ties)
{
    int improved = 0;
    for (Py_ssize_t i = 0; i + 1 < width; i++)
        improved |= swap_if_better(o, members, i, swap_ties) == 2;
    return improved;
}

static void transpose_one_by_one(Ordering *o, Lists *order, int passes, int swap_ties)
{
    positions_from(o, order);
    Py_ssize_t layers = order->count;
    char *dirty = (char *)o->scratch;  /* at least as many bytes as layers */
    memset(dirty, 1, layers);
    for (int pass = 0; pass < passes; pass++) {
        int improved = 0;
        for (Py_ssize_t level = 0; level < layers; level++) {
            Py_ssize_t start = order->ptr[level], width = order->ptr[level + 1] - start;
            if (!dirty[level] || width < 2)
                continue;
            dirty[level] = 0;
            if (transpose_layer(o, order->idx + start, width, swap_ties)) {
                improved = 1;
                for (Py_ssize_t near = level - 1; near <= level + 1; near++)
                    if (near >= 0 && near < layers)
                        dirty[near] = 1;
            }
        }
        if (!improved)
            break;
    }
}

/* Rounds of disjoint pairs whose other ends stay put (layout._transpose_odd_even).
 * A layer's pairs of one parity whose inputs (the layer and both neighbours) are as they
 * were when they last made no swap are skipped: they would make none again. */
static void transpose_odd_even(Ordering *o, Lists *order, int passes, int swap_ties)
{
    positions_from(o, order);
    Py_ssize_t layers = order->count;
    long long *changes = o->changes, *settled = o->settled;
    for (Py_ssize_t level = 0; level < layers; level++) {
        changes[level] = 0;
        settled[2 * level] = settled[2 * level + 1] = -1;
    }
    for (int round = 0; round < passes * 4; round++) {
        int improved = 0;
        for (int kind = 0; kind < 4; kind++) {
            int odd_layer = kind / 2, odd_slot = kind % 2;
            for (Py_ssize_t level = odd_layer; level < layers; level += 2) {
                long long around = changes[level] + (level ? changes[level - 1] : 0) +
                              (level + 1 < layers ? changes[level + 1] : 0);
                if (settled[2 * level + odd_slot] == around)
                    continue;
                int *members = order->idx + order->ptr[level];
                Py_ssize_t width = order->ptr[level + 1] - order->ptr[level];
                long long swaps = 0;
                for (Py_ssize_t i = odd_slot; i + 1 < width; i += 2) {
                    int swapped = swap_if_better(o, members, i, swap_ties);
                    improved |= swapped == 2;
                    swaps += swapped > 0;
                }
                changes[level] += swaps;
                settled[2 * level + odd_slot] = swaps ? -1 : around;
            }
        }
        if (!improved)
            break;
    }
}

static void transpose(Ordering *o, Lists *order, int passes, int swap_ties, int odd_even)
{
    if (odd_even)
        transpose_odd_even(o, order, passes, swap_ties);
    else
        transpose_one_by_one(o, order, passes, swap_ties);
}

/* dot's loop: median sweep, transpose, keep the best; stop when it stops improving.
 * Leaves the best order in `best` and returns its crossings. */
static long long order_run(Ordering *o, Lists *best, int sweeps, int stale_limit, int passes,
                           int odd_even)
{
    Py_ssize_t members = o->order.ptr[o->order.count];
    memcpy(best->idx, o->order.idx, sizeof(int) * members);
    long long best_count = total_crossings(o, &o->order);
    int stale = 0;
    for (int sweep = 0; sweep < sweeps; sweep++) {
        if (best_count == 0 || stale >= stale_limit)
            break;
        median_sweep(o, &o->order, sweep % 2 == 0);
        /* swapping equal pairs on alternate sweeps lets the order drift off plateaus */
        transpose(o, &o->order, passes, sweep % 4 >= 2, odd_even);
        long long count = total_crossings(o, &o->order);
        if (count < best_count) {
            memcpy(best->idx, o->order.idx, sizeof(int) * members);
            best_count = count;
            stale = 0;
        } else {
            stale++;
        }
    }
    if (best_count > 0) {
        transpose(o, best, passes, 0, odd_even);
        best_count = total_crossings(o, best);
    }
    return best_count;
}

/* Whether every neighbour is in the layer next to its node (or, past the run's ends, outside
 * it): the crossing counts index the next layer by position. */
static int run_is_layered(const Ordering *o, int *layer_of)
{
    Py_ssize_t size = o->up.count, layers = o->order.count;
    for (Py_ssize_t v = 0; v < size; v++)
        layer_of[v] = -1;
    for (Py_ssize_t level = 0; level < layers; level++)
        for (Py_ssize_t k = o->order.ptr[level]; k < o->order.ptr[level + 1]; k++)
            layer_of[o->order.idx[k]] = (int)level;
    for (Py_ssize_t v = 0; v < size; v++) {
        for (int side = 0; side < 2; side++) {
            const Lists *near = side ? &o->down : &o->up;
            for (Py_ssize_t i = near->ptr[v]; i < near->ptr[v + 1]; i++) {
                int w = near->idx[i];
                if (w < 0 || w >= size)
                    return 0;
                if (layer_of[v] < 0)
                    continue;
                int expected = layer_of[v] + (side ? 1 : -1);
                if (expected >= 0 && expected < layers ? layer_of[w] != expected
                                                       : layer_of[w] >= 0)
                    return 0;
            }
        }
    }
    return 1;
}

static PyObject *reduce_crossings(PyObject *self, PyObject *args)
{
    PyObject *order_list, *up_list, *down_list;
    int sweeps, stale_limit, passes, odd_even;
    if (!PyArg_ParseTuple(args, "O!O!O!iiii", &PyList_Type, &order_list, &PyList_Type,
                          &up_list, &PyList_Type, &down_list, &sweeps, &stale_limit, &passes,
                          &odd_even))
        return NULL;
    Ordering o;
    memset(&o, 0, sizeof(o));
    Lists best = {0, NULL, NULL};
    PyObject *result = NULL;
    if (layered_from(order_list, up_list, down_list, &o.order, &o.up, &o.down) < 0)
        goto done;
    Py_ssize_t size = o.up.count, members = o.order.ptr[o.order.count];
    for (Py_ssize_t k = 0; k < members; k++) {
        if (o.order.idx[k] < 0 || o.order.idx[k] >= size || o.down.count != size) {
            PyErr_SetString(PyExc_ValueError, "a node of the order has no neighbour lists");
            goto done;
        }
    }
    Py_ssize_t room = size + o.order.count + 2;  /* also holds any node's neighbours */
    for (Py_ssize_t v = 0; v < size; v++) {
        Py_ssize_t degree = o.up.ptr[v + 1] - o.up.ptr[v] + o.down.ptr[v + 1] - o.down.ptr[v];
        if (degree >= room)
            room = degree + 1;
    }
    o.position = PyMem_RawCalloc(size + 1, sizeof(int));
    o.fenwick = PyMem_RawMalloc(sizeof(int) * room);
    o.changes = PyMem_RawMalloc(sizeof(long long) * room);
    o.settled = PyMem_RawMalloc(sizeof(long long) * 2 * room);
    o.keys = PyMem_RawMalloc(sizeof(double) * room);
    o.slots = PyMem_RawMalloc(sizeof(int) * room);
    o.buffer = PyMem_RawMalloc(sizeof(int) * room);
    o.scratch = PyMem_RawMalloc(sizeof(int) * room);
    best.count = o.order.count;
    best.ptr = o.order.ptr;  /* same layer sizes; only the members move */
    best.idx = PyMem_RawMalloc(sizeof(int) * (members + 1));
    if (!o.position || !o.fenwick || !o.changes || !o.settled || !o.keys || !o.slots ||
        !o.buffer || !o.scratch || !best.idx) {
        PyErr_NoMemory();
        goto done;
    }
    if (!run_is_layered(&o, o.position)) {
        PyErr_SetString(PyExc_ValueError, "a neighbour is not in the layer next to its node");
        goto done;
    }
    memset(o.position, 0, sizeof(int) * size);  /* nodes outside the run stay at slot 0 */
    long long best_count;
    Py_BEGIN_ALLOW_THREADS
    best_count = order_run(&o, &best, sweeps, stale_limit, passes, odd_even);
    Py_END_ALLOW_THREADS
    PyObject *layers = lists_to(&best);
    if (layers)
        result = Py_BuildValue("(NL)", layers, best_count);
done:
    layered_free(&o.order, &o.up, &o.down);
    FREE_ALL(o.position, o.fenwick, o.changes, o.settled, o.keys, o.slots, o.buffer, o.scratch,
             best.idx);
    return result;
}

/* ----- 3. coordinates (layout.py's _place) -------------------------------------------------- */

typedef struct {
    Lists order, up, down;
    int real;
    double *widths, *xs, *before, *offsets, *values, *weights;
    double *means, *totals;
    int *counts;
} Placement;

/* Weighted least-squares non-decreasing fit, in place (pool adjacent violators). */
static void isotonic(Placement *p, double *values, const double *weights, Py_ssize_t size)
{
    Py_ssize_t blocks = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        double mean = values[i], total = weights[i];
        int count = 1;
        while (blocks && p->means[blocks - 1] > mean) {
            blocks--;
            double before = p->totals[blocks];
            mean = (p->means[blocks] * before + mean * total) / (before + total);
            total += before;
            count += p->counts[blocks];
        }
        p->means[blocks] = mean;
        p->totals[blocks] = total;
        p->counts[blocks++] = count;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t b = 0; b < blocks; b++)
        for (int c = 0; c < p->counts[b]; c++)
            values[k++] = p->means[b];
}

/* The mean x of v's neighbours on one side (0 above, 1 below, 2 both); 0 if it has none. */
static int neighbour_mean(Placement *p, int v, int side, double *mean)
{
    double sum = 0.0;
    Py_ssize_t count = 0;
    for (int part = 0; part < 2; part++) {
        if (side != 2 && side != part)
            continue;
        const Lists *near = part ? &p->down : &p->up;
        for (Py_ssize_t i = near->ptr[v]; i < near->ptr[v + 1]; i++) {
            sum += p->xs[near->idx[i]];
            count++;
        }
    }
    if (!count)
        return 0;
    *mean = count == 1 ? sum : sum / (double)count;
    return 1;
}

static void align(Placement *p, Py_ssize_t level, int side)
{
    Py_ssize_t start = p->order.ptr[level], width = p->order.ptr[level + 1] - start;
    const int *members = p->order.idx + start;
    if (width == 1) {
        double mean;
        if (neighbour_mean(p, members[0], side, &mean))
            p->xs[members[0]] = mean;
        return;
    }
    const double *offsets = p->offsets + start;
    for (Py_ssize_t i = 0; i < width; i++) {
        int v = members[i];
        double mean;
        if (neighbour_mean(p, v, side, &mean)) {
            p->values[i] = mean - offsets[i];
            p->weights[i] = v >= p->real ? 4.0 : 1.0;  /* long edges pull hardest */
        } else {
            p->values[i] = p->xs[v] - offsets[i];
            p->weights[i] = 0.01;
        }
    }
    isotonic(p, p->values, p->weights, width);
    for (Py_ssize_t i = 0; i < width; i++)
        p->xs[members[i]] = p->values[i] + offsets[i];
}

/* Minimum offsets in each layer, then sweeps down and up, then one pass using both sides. */
static void place_sweeps(Placement *p, double node_gap, double dummy_gap, double settled,
                         int sweeps)
{
    const double *widths = p->widths;
    Py_ssize_t size = p->up.count;
    int real = p->real;
    Py_ssize_t layers = p->order.count;
    for (Py_ssize_t level = 0; level < layers; level++) {
        Py_ssize_t start = p->order.ptr[level], end = p->order.ptr[level + 1];
        p->offsets[start] = 0.0;
        for (Py_ssize_t k = start + 1; k < end; k++) {
            int a = p->order.idx[k - 1], b = p->order.idx[k];
            double gap = a < real && b < real ? node_gap : dummy_gap;
            p->offsets[k] = p->offsets[k - 1] + (widths[a] + widths[b]) / 2 + gap;
        }
        if (end - start > 1)
            for (Py_ssize_t k = start; k < end; k++)
                p->xs[p->order.idx[k]] = p->offsets[k];
    }
    for (int sweep = 0; sweep < sweeps; sweep++) {
        memcpy(p->before, p->xs, sizeof(double) * size);
        for (Py_ssize_t step = 1; step < layers; step++)
            align(p, sweep % 2 ? layers - 1 - step : step, sweep % 2);
        double moved = 0.0;
        for (Py_ssize_t v = 0; v < size; v++) {
            double change = p->xs[v] - p->before[v];
            if (change < 0)
                change = -change;
            if (change > moved)
                moved = change;
        }
        if (sweep && moved < settled)
            break;  /* chains and trees settle in two sweeps */
    }
    for (Py_ssize_t level = 0; level < layers; level++)
        align(p, level, 2);  /* a last pass that listens to both sides */
}

static PyObject *place(PyObject *self, PyObject *args)
{
    PyObject *order_list, *up_list, *down_list, *width_list;
    int real, sweeps;
    double node_gap, dummy_gap, settled;
    if (!PyArg_ParseTuple(args, "O!O!O!O!idddi", &PyList_Type, &order_list, &PyList_Type,
                          &up_list, &PyList_Type, &down_list, &PyList_Type, &width_list,
                          &real, &node_gap, &dummy_gap, &settled, &sweeps))
        return NULL;
    Placement p;
    memset(&p, 0, sizeof(p));
    PyObject *result = NULL;
    if (layered_from(order_list, up_list, down_list, &p.order, &p.up, &p.down) < 0)
        goto done;
    Py_ssize_t size = p.up.count, members = p.order.ptr[p.order.count];
    if (PyList_GET_SIZE(width_list) != size || p.down.count != size) {
        PyErr_SetString(PyExc_ValueError, "widths and neighbour lists do not match");
        goto done;
    }
    p.real = real;
    Py_ssize_t room = size + 1;
    p.widths = PyMem_RawMalloc(sizeof(double) * room);
    p.xs = PyMem_RawCalloc(room, sizeof(double));
    p.before = PyMem_RawMalloc(sizeof(double) * room);
    p.offsets = PyMem_RawMalloc(sizeof(double) * (members + 1));
    p.values = PyMem_RawMalloc(sizeof(double) * room);
    p.weights = PyMem_RawMalloc(sizeof(double) * room);
    p.means = PyMem_RawMalloc(sizeof(double) * room);
    p.totals = PyMem_RawMalloc(sizeof(double) * room);
    p.counts = PyMem_RawMalloc(sizeof(int) * room);
    if (!p.widths || !p.xs || !p.before || !p.offsets || !p.values || !p.weights || !p.means ||
        !p.totals || !p.counts) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < members; k++) {
        if (p.order.idx[k] < 0 || p.order.idx[k] >= size) {
            PyErr_SetString(PyExc_ValueError, "a node of the order has no width");
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < p.up.ptr[size] || k < p.down.ptr[size]; k++) {
        if ((k < p.up.ptr[size] && (p.up.idx[k] < 0 || p.up.idx[k] >= size)) ||
            (k < p.down.ptr[size] && (p.down.idx[k] < 0 || p.down.idx[k] >= size))) {
            PyErr_SetString(PyExc_ValueError, "a neighbour is out of range");
            goto done;
        }
    }
    double *widths = p.widths;
    for (Py_ssize_t v = 0; v < size; v++) {
        widths[v] = PyFloat_AsDouble(PyList_GET_ITEM(width_list, v));
        if (widths[v] == -1.0 && PyErr_Occurred())
            goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    place_sweeps(&p, node_gap, dummy_gap, settled, sweeps);
    Py_END_ALLOW_THREADS
    result = PyList_New(size);
    for (Py_ssize_t v = 0; result && v < size; v++) {
        PyObject *x = PyFloat_FromDouble(p.xs[v]);
        if (!x) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, v, x);
    }
done:
    layered_free(&p.order, &p.up, &p.down);
    FREE_ALL(p.widths, p.xs, p.before, p.offsets, p.values, p.weights, p.means, p.totals,
             p.counts);
    return result;
}

/* ----- module ---------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"descend", descend, METH_VARARGS,
     "descend(count, sources, targets, layer) -> the layering of least total edge length"},
    {"simplex", simplex, METH_VARARGS,
     "simplex(count, sources, targets, layer) -> the same by network simplex; None: descend"},
    {"reduce_crossings", reduce_crossings, METH_VARARGS,
     "reduce_crossings(order, up, down, sweeps, stale, passes, odd_even) -> (order, crossings)"},
    {"place", place, METH_VARARGS,
     "place(order, up, down, widths, real, node_gap, dummy_gap, settled, sweeps) -> xs"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The layered layout's hot loops in C; layout.py and ranking.py hold the same in Python.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *created = PyModule_Create(&module);
    /* ranking.CORE_API: Python ignores a build whose functions it does not expect */
    if (created && PyModule_AddIntConstant(created, "API", 1) < 0)
        Py_CLEAR(created);
    return created;
}
