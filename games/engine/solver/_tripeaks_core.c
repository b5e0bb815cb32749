/* The Tri-Peaks search of tripeaks_search.py, compiled: the same positions in the same order
 * with the same cuts, so the same verdict, line and count of positions (held to that by
 * tests/engine/test_solver_core.py). tripeaks_search.py documents the method.
 *
 * Python passes one position (see TriPeaksSearch._run_compiled) and gets back (status,
 * positions examined, line): status 1 won, 0 lost, -1 out of nodes or time; the line last
 * action first, each action the layout slot played, or -1 for a draw.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_search_common.h"

#define SLOTS 28
#define RANKS 13
#define MAX_STOCK 52
#define CHECK_EVERY 4096
#define STOCK_SHIFT 32
#define RANK_SHIFT 40
#define NONE (-1)

typedef struct {
    int ranks[SLOTS]; /* 0: no card */
    int covered_by[SLOTS][2];
    u64 helpers[SLOTS];
    int last_helper[SLOTS];
    int stock[MAX_STOCK], stock_size;
    int top;
    long long node_limit; /* NONE: no limit */
    double deadline;      /* < 0: none */
} Input;

typedef struct {
    const Input *in;
    u64 *keys;
    size_t cap, count;
    long long nodes;
    int memory_error;
    int *line;
    size_t line_len, line_cap;
} Search;

static int up(int rank) { return rank % RANKS + 1; }
static int down(int rank) { return (rank + RANKS - 2) % RANKS + 1; }
static int neighbours(int a, int b) { return a == up(b) || a == down(b); }

static size_t slot_of(u64 key, size_t cap) { return (size_t)mix64(key) & (cap - 1); }

/* Adds key (never 0: the empty layout is a win, never searched) to the set of positions
 * seen; 1 if it was new. */
static int add_seen(Search *s, u64 key) {
    if ((s->count + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1 << 12;
        u64 *keys = calloc(cap, sizeof(u64));
        if (!keys) {
            s->memory_error = 1;
            return 0;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->keys[i]) continue;
            size_t j = slot_of(s->keys[i], cap);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = s->keys[i];
        }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    size_t i = slot_of(key, s->cap);
    while (s->keys[i]) {
        if (s->keys[i] == key) return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->keys[i] = key;
    s->count++;
    return 1;
}

static int line_push(Search *s, int item) {
    if (s->line_len == s->line_cap) {
        size_t cap = s->line_cap ? s->line_cap * 2 : 128;
        int *items = realloc(s->line, cap * sizeof(int));
        if (!items) {
            s->memory_error = 1;
            return 0;
        }
        s->line = items;
        s->line_cap = cap;
    }
    s->line[s->line_len++] = item;
    return 1;
}

/* tripeaks_search.runs_needed. */
static int runs_needed(const int *counts) {
    int present = 0, gap = 0;
    for (int r = RANKS; r >= 1; r--) {
        if (counts[r]) {
            present++;
        } else {
            gap = r;
        }
    }
    if (present == RANKS) return 1;
    if (!present) return 0;
    int total = 0, balance = 0, in_block = 0;
    for (int step = 1; step <= RANKS; step++) {
        int r = (gap + step - 1) % RANKS + 1;
        if (counts[r]) {
            balance += step % 2 ? counts[r] : -counts[r];
            in_block = 1;
        } else if (in_block) {
            total += abs(balance) > 1 ? abs(balance) : 1;
            balance = 0;
            in_block = 0;
        }
    }
    if (in_block) total += abs(balance) > 1 ? abs(balance) : 1;
    return total;
}

static int is_free(const Input *in, u64 live, int k) {
    int a = in->covered_by[k][0], b = in->covered_by[k][1];
    return !(a >= 0 && has(live, a)) && !(b >= 0 && has(live, b));
}

/* 1 won, 0 lost, -1 out of nodes, time or memory. */
static int search(Search *s, u64 live, int drawn, int top) {
    const Input *in = s->in;
    u64 key = live | (u64)drawn << STOCK_SHIFT | (u64)top << RANK_SHIFT;
    if (!add_seen(s, key)) return s->memory_error ? -1 : 0;
    s->nodes++;
    if (s->nodes == in->node_limit ||
        (!(s->nodes & (CHECK_EVERY - 1)) && in->deadline >= 0 && now() > in->deadline))
        return -1;

    int counts[RANKS + 1] = {0};
    int free_slots[SLOTS], nfree = 0;
    for (int k = SLOTS - 1; k >= 0; k--) {
        if (!has(live, k)) continue;
        counts[in->ranks[k]]++;
        int free = is_free(in, live, k);
        if (free) free_slots[nfree++] = k;
        if (!(in->helpers[k] & live)) {
            /* Its last stock helper is gone, and it cannot be played on the top now. */
            if (in->last_helper[k] < drawn && !(free && neighbours(in->ranks[k], top))) return 0;
        }
    }
    if (runs_needed(counts) > in->stock_size - drawn + 1) return 0;
    int targets[2] = {up(top), down(top)};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < nfree; i++) {
            int k = free_slots[i];
            if (in->ranks[k] != targets[t]) continue;
            u64 rest = live & ~((u64)1 << k);
            int result = rest ? search(s, rest, drawn, targets[t]) : 1;
            if (result == 1 && !line_push(s, k)) return -1;
            if (result) return result;
        }
    }
    if (drawn < in->stock_size) {
        int result = search(s, live, drawn + 1, in->stock[drawn]);
        if (result == 1 && !line_push(s, NONE)) return -1;
        return result;
    }
    return 0;
}

static int read_bytes(PyObject *bytes, unsigned char *out, Py_ssize_t size, const char *what) {
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes expected", what, size);
        return 0;
    }
    memcpy(out, PyBytes_AS_STRING(bytes), (size_t)size);
    return 1;
}

static PyObject *py_run(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ranks, *covered_by, *helpers, *last_helper, *stock;
    Input in;
    memset(&in, 0, sizeof in);
    if (!PyArg_ParseTuple(args, "OOOOO!iLd", &ranks, &covered_by, &helpers, &last_helper, &PyBytes_Type, &stock,
                          &in.top, &in.node_limit, &in.deadline))
        return NULL;
    unsigned char raw[4 * SLOTS];
    if (!read_bytes(ranks, raw, SLOTS, "ranks")) return NULL;
    for (int k = 0; k < SLOTS; k++) in.ranks[k] = raw[k];
    if (!read_bytes(covered_by, raw, 2 * SLOTS, "covered_by")) return NULL;
    for (int k = 0; k < SLOTS; k++)
        for (int m = 0; m < 2; m++) in.covered_by[k][m] = raw[2 * k + m] < SLOTS ? raw[2 * k + m] : NONE;
    if (!read_bytes(helpers, raw, 4 * SLOTS, "helpers")) return NULL;
    for (int k = 0; k < SLOTS; k++)
        in.helpers[k] = (u64)raw[4 * k] | (u64)raw[4 * k + 1] << 8 | (u64)raw[4 * k + 2] << 16 |
                        (u64)raw[4 * k + 3] << 24;
    if (!read_bytes(last_helper, raw, SLOTS, "last_helper")) return NULL;
    for (int k = 0; k < SLOTS; k++) in.last_helper[k] = raw[k] == 255 ? NONE : raw[k];
    in.stock_size = (int)PyBytes_GET_SIZE(stock);
    if (in.stock_size > MAX_STOCK) {
        PyErr_SetString(PyExc_ValueError, "stock: at most 52 cards");
        return NULL;
    }
    for (int i = 0; i < in.stock_size; i++) in.stock[i] = (unsigned char)PyBytes_AS_STRING(stock)[i];
    for (int k = 0; k < SLOTS; k++)
        if (in.ranks[k] > RANKS) goto bad_rank;
    for (int i = 0; i < in.stock_size; i++)
        if (in.stock[i] < 1 || in.stock[i] > RANKS) goto bad_rank;
    if (in.top < 1 || in.top > RANKS) goto bad_rank;

    u64 live = 0;
    for (int k = 0; k < SLOTS; k++)
        if (in.ranks[k]) live |= (u64)1 << k;
    Search s;
    memset(&s, 0, sizeof s);
    s.in = &in;
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = live ? search(&s, live, 0, in.top) : 1;
    Py_END_ALLOW_THREADS
    free(s.keys);
    if (s.memory_error) {
        free(s.line);
        return PyErr_NoMemory();
    }
    PyObject *items = PyList_New((Py_ssize_t)(result == 1 ? s.line_len : 0));
    for (size_t i = 0; items && result == 1 && i < s.line_len; i++) {
        PyObject *item = PyLong_FromLong(s.line[i]);
        if (!item) {
            Py_CLEAR(items);
            break;
        }
        PyList_SET_ITEM(items, (Py_ssize_t)i, item);
    }
    free(s.line);
    return items ? Py_BuildValue("iLN", result, s.nodes, items) : NULL;

bad_rank:
    PyErr_SetString(PyExc_ValueError, "ranks are 1 to 13 (0: no card, in the layout)");
    return NULL;
}

static PyMethodDef methods[] = {
    {"run", py_run, METH_VARARGS, "run(position...) -> (status, positions, line): see the module source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tripeaks_core",
    .m_doc = "The compiled Tri-Peaks search (see tripeaks_search.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__tripeaks_core(void) { return PyModule_Create(&module); }
