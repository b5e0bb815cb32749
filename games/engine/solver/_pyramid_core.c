/* The Pyramid search of pyramid_search.py, compiled: the same positions, in the same order,
 * with the same reductions, so it returns the same verdict, the same line and the same
 * count of positions (tests/engine/test_solver_core.py holds it to that).
 * pyramid_search.py documents the method, and names below follow it (live, p, contexts,
 * moment, the failure table).
 *
 * Python passes one position (see PyramidSearch._compiled_args) and gets back
 * (status, positions examined, line): status 1 won, 0 lost, -1 out of nodes or time; the
 * line last action first, each action an int: -1 draw, -2 redeal, a for the King of id a,
 * a | (b + 1) << 6 for the pair of ids a and b. With `reshuffle`, Python also passes the
 * numbers each redeal's rng.shuffled draws, and shuffle() below repeats its Fisher-Yates,
 * so the search follows the engine's shuffles exactly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_search_common.h"

#define TARGET 13
#define KING 13
#define MAX_IDS 52 /* a deck; the failure table keeps moments above these bits */
#define MAX_SEQ 52
#define MAX_SLOTS 28
#define MAX_CLASS 8
#define CLASSES 7
#define CHECK_EVERY 4096
#define UNLIMITED_STAND_IN 60
#define NONE (-1)
#define RAN_OUT 2 /* smaller_game: its positions ran out */
/* pyramid_search.last_pass_wastes: a last pass's waste mask, and one whose order is not by id. */
#define LAST_PASS ((u64)1 << 62)
#define SHUFFLED ((u64)1 << 61)

#define MAX_STAGES 8
#define CLASS_PROOF_SIZE 3 /* pyramid_search.CLASS_PROOF_SIZE */

/* pyramid_search.RELAX_STAGES: after `after` positions, try the smaller games keeping each
 * of `sizes` classes, `each` positions apiece. */
typedef struct {
    long long after, each;
    int sizes[CLASSES], nsizes;
} Stage;

typedef struct {
    int n;
    int values[MAX_IDS]; /* 0: no card in that place */
    int size, nreserve, seq_len;
    int start_p, start_used;
    int redeals; /* NONE: unlimited */
    int pass_removed, clear_the_board, waste_usable, overlap, reshuffle;
    /* With reshuffle: redeal u (redeal_first < u <= redeal_first + redeal_count) draws the numbers
     * draws[(u - redeal_first - 1) * (seq_len - 1) + i], i < seq_len - 1. */
    const double *draws;
    int redeal_first, redeal_count;
    int covered_by[MAX_SLOTS][2], covers[MAX_SLOTS][2]; /* NONE-padded */
    long long node_limit; /* NONE: no limit */
    double deadline;      /* < 0: none */
    int relax;
    int fewer_passes_first; /* PyramidSearch.fewer_passes_first: a smaller game of a late stage */
    long long failure_limit; /* positions a generation of the failure table holds */
    long long free_stock_nodes; /* pyramid_search.FREE_STOCK_NODES */
    long long free_stock_after; /* pyramid_search.FREE_STOCK_AFTER */
    long long order_from;       /* pyramid_search.ORDER_FROM */
    long long order_run;        /* pyramid_search.ORDER_RUN */
    long long class_proofs_after; /* pyramid_search.CLASS_PROOFS_AFTER */
    long long class_proof_nodes;  /* pyramid_search.CLASS_PROOF_NODES */
    long long class_proof_every;  /* pyramid_search.CLASS_PROOF_EVERY */
    long long class_proofs_capped_after; /* pyramid_search.CLASS_PROOFS_CAPPED_AFTER */
    long long class_proof_share;         /* pyramid_search.CLASS_PROOF_SHARE */
    long long fewer_passes_after;        /* pyramid_search.FEWER_PASSES_AFTER */
    long long fewer_passes_nodes;        /* pyramid_search.FEWER_PASSES_NODES */
    Stage stages[MAX_STAGES];
    int nstages;
} Input;

/* One word a slot: the live cards in the low MAX_IDS bits, the moment above them; 0 is an
 * empty slot, since a position with no card in play is won and never recorded. Moments stay
 * under (MAX_IDS + 1) * (MAX_SEQ + 1): a search counts at most MAX_IDS redeals ahead (more
 * are as many as unlimited, see setup) of one pass each. With reshuffle every pass has its
 * own table id, in a second array kept only then. */
typedef struct {
    u64 *slots;
    uint32_t *tables; /* NULL but with reshuffle */
    size_t cap, count;
    int with_tables;
} FailTable;

/* pyramid_search.Cache: a young generation holding `limit` keys becomes the old one, and the
 * previous old one is dropped. Keys are never 0 (the positions kept have cards in play). */
typedef struct {
    FailTable young, old;
    long long limit;
} Cache;

#define MOMENT_SHIFT MAX_IDS
#define KEY_MASK (((u64)1 << MOMENT_SHIFT) - 1)
_Static_assert((MAX_IDS + 1) * (MAX_SEQ + 1) <= (1 << (64 - MOMENT_SHIFT)), "moments fit above the cards");

/* A pass: the redeals used, whether it removed a card yet, and its order of cards (which
 * changes only with reshuffle). pyramid_search.PyramidSearch.context. */
typedef struct {
    u64 waste_flags; /* in the last pass LAST_PASS, and SHUFFLED if seq is not by id; 0 before it */
    int used, flag, moment, len;
    int flagged; /* this pass once it removed a card (the index of its flag-set twin); NONE till made */
    uint32_t table; /* passes whose positions compare share a failure table: 0 but with reshuffle */
    unsigned char seq[]; /* len ids: with reshuffle a search can make millions of contexts */
} Context;

typedef struct {
    int *items;
    size_t len, cap;
} Line;

typedef struct {
    const Input *in;
    int size, base, seq_len, span;
    u64 live0, tableau_mask, reserve_mask, sequence_mask, required;
    u64 below[MAX_SLOTS];
    int max_redeals, start_flag;
    int class_of[MAX_IDS];
    u64 class_mask[CLASSES], low_mask[CLASSES];
    int class_ids[CLASSES][MAX_CLASS], class_n[CLASSES];
    int8_t *class_table[CLASSES];
    Cache failed;    /* live cards -> earliest moment known to fail */
    Cache free_lost; /* live cards -> whether lost with a free stock (lost_with_a_free_stock) */
    /* A smaller game's cards in play (table: its classes and pass) -> the moments it is known
     * lost from and open up to (lost_in_smaller_games). */
    Cache smaller_lost;
    u64 kings; /* the tableau's Kings, which the smaller games keep */
    Context **contexts;
    size_t ncontexts, contexts_cap;
    int32_t *context_slots; /* open addressing over contexts, by content; -1: empty */
    size_t context_slots_cap;
    long long nodes, budget;
    long long proof_nodes; /* the positions spent in settled's smaller games */
    int order; /* 1: removal_weight's order, -1: its reverse (pyramid_search.ORDER_RUN) */
    /* PyramidSearch.won_games and ran_out, by the bitmask of the classes a smaller game keeps. */
    unsigned char won_games[1 << CLASSES];
    long long ran_out[1 << CLASSES];
    int memory_error, input_error;
    Line line;
} Search;

static int run_search(const Input *in, long long *nodes_out, Line *line_out, int *memory_error);

/* -- small helpers ------------------------------------------------------------------ */

static int line_push(Search *s, int item) {
    Line *l = &s->line;
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        int *items = realloc(l->items, cap * sizeof(int));
        if (!items) {
            s->memory_error = 1;
            return 0;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = item;
    return 1;
}

static int pair_code(int a, int b) { return b < 0 ? a : (a | (b + 1) << 6); }

/* -- the failure table: live cards -> earliest moment known to fail -------------------- */

static size_t slot_of(u64 key, uint32_t table, size_t cap) {
    return (size_t)mix64(key ^ (u64)table * 0x9e3779b97f4a7c15ULL) & (cap - 1);
}

static int holds(const FailTable *t, size_t i, u64 key, uint32_t table) {
    return (t->slots[i] & KEY_MASK) == key && (!t->tables || t->tables[i] == table);
}

static int32_t table_find(const FailTable *t, u64 key, uint32_t table) {
    if (!t->cap) return NONE;
    for (size_t i = slot_of(key, table, t->cap);; i = (i + 1) & (t->cap - 1)) {
        if (!t->slots[i]) return NONE;
        if (holds(t, i, key, table)) return (int32_t)(t->slots[i] >> MOMENT_SHIFT);
    }
}

static int table_grow(FailTable *t) {
    size_t cap = t->cap ? t->cap * 2 : 1 << 12;
    u64 *slots = calloc(cap, sizeof(u64));
    uint32_t *tables = t->with_tables ? malloc(cap * sizeof(uint32_t)) : NULL;
    if (!slots || (t->with_tables && !tables)) {
        free(slots);
        free(tables);
        return 0;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i]) continue;
        uint32_t table = tables ? t->tables[i] : 0;
        size_t j = slot_of(t->slots[i] & KEY_MASK, table, cap);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
        if (tables) tables[j] = table;
    }
    free(t->slots);
    free(t->tables);
    t->slots = slots;
    t->tables = tables;
    t->cap = cap;
    return 1;
}

/* Starts loading the slots where `key` would be, so that the search's work meanwhile hides
 * the wait: the table is far larger than the CPU's caches. */
static void cache_prefetch(const Cache *c, u64 key, uint32_t table) {
    if (c->young.cap) __builtin_prefetch(&c->young.slots[slot_of(key, table, c->young.cap)]);
    if (c->old.cap) __builtin_prefetch(&c->old.slots[slot_of(key, table, c->old.cap)]);
}

static int32_t cache_get(const Cache *c, u64 key, uint32_t table) {
    int32_t value = table_find(&c->young, key, table);
    return value == NONE ? table_find(&c->old, key, table) : value;
}

/* 0 out of memory. */
static int cache_put(Cache *c, u64 key, uint32_t table, u64 value) {
    FailTable *t = &c->young;
    if ((long long)t->count >= c->limit && table_find(t, key, table) == NONE) {
        free(c->old.slots);
        free(c->old.tables);
        c->old = *t;
        t->slots = NULL;
        t->tables = NULL;
        t->cap = t->count = 0;
    }
    /* Up to three quarters full: linear probing stays short with mix64, and the worst lost
     * deals (tens of millions of positions recorded) fit in half the memory of half full. */
    if ((t->count + 1) * 4 > t->cap * 3 && !table_grow(t)) return 0;
    size_t i = slot_of(key, table, t->cap);
    while (t->slots[i] && !holds(t, i, key, table)) i = (i + 1) & (t->cap - 1);
    if (!t->slots[i]) {
        if (t->tables) t->tables[i] = table;
        t->count++;
    }
    t->slots[i] = key | value << MOMENT_SHIFT;
    return 1;
}

/* Keys are never 0: no card in play is a won position, never recorded. */
static void record_failure(Search *s, u64 key, uint32_t table, int known, int start) {
    u64 moment = (u64)(known < 0 || start < known ? start : known);
    if (!cache_put(&s->failed, key, table, moment)) s->memory_error = 1;
}

static void cache_free(Cache *c) {
    free(c->young.slots);
    free(c->young.tables);
    free(c->old.slots);
    free(c->old.tables);
}

/* -- contexts ------------------------------------------------------------------------ */

static size_t context_hash(int used, int flag, const unsigned char *seq, int len, size_t cap) {
    u64 h = (u64)used * 0x100000001b3ULL ^ (u64)flag << 40 ^ (u64)len << 48;
    for (int i = 0; i < len; i++) h = (h ^ seq[i]) * 0x100000001b3ULL;
    return slot_of(h | 1, 0, cap);
}

static int context_slots_grow(Search *s) {
    size_t cap = s->context_slots_cap ? s->context_slots_cap * 2 : 64;
    int32_t *slots = malloc(cap * sizeof(int32_t));
    if (!slots) return 0;
    memset(slots, -1, cap * sizeof(int32_t));
    for (size_t i = 0; i < s->ncontexts; i++) {
        const Context *c = s->contexts[i];
        size_t j = context_hash(c->used, c->flag, c->seq, c->len, cap);
        while (slots[j] >= 0) j = (j + 1) & (cap - 1);
        slots[j] = (int32_t)i;
    }
    free(s->context_slots);
    s->context_slots = slots;
    s->context_slots_cap = cap;
    return 1;
}

/* The index of the context (used, flag, seq), made on first use; -1 out of memory. */
static int context(Search *s, int used, int flag, const unsigned char *seq, int len) {
    const Input *in = s->in;
    int key_used = in->reshuffle || s->max_redeals != NONE ? used : 0;
    if ((s->ncontexts + 1) * 2 > s->context_slots_cap && !context_slots_grow(s)) goto out_of_memory;
    size_t j = context_hash(key_used, flag, seq, len, s->context_slots_cap);
    for (; s->context_slots[j] >= 0; j = (j + 1) & (s->context_slots_cap - 1)) {
        const Context *c = s->contexts[s->context_slots[j]];
        if (c->used == key_used && c->flag == flag && c->len == len && !memcmp(c->seq, seq, (size_t)len))
            return s->context_slots[j];
    }
    if (s->ncontexts == s->contexts_cap) {
        size_t cap = s->contexts_cap ? s->contexts_cap * 2 : 16;
        Context **contexts = realloc(s->contexts, cap * sizeof(Context *));
        if (!contexts) goto out_of_memory;
        s->contexts = contexts;
        s->contexts_cap = cap;
    }
    int last = s->max_redeals != NONE && used == s->max_redeals;
    Context *c = malloc(sizeof(Context) + (size_t)len);
    if (!c) goto out_of_memory;
    int index = (int)s->ncontexts;
    /* Stored under its key's `used`, as Python's, which counts redeals only when they matter. */
    c->used = key_used;
    c->flag = flag;
    c->flagged = flag ? index : NONE;
    c->len = len;
    memcpy(c->seq, seq, (size_t)len);
    if (in->reshuffle) {
        /* Passes of different card orders are not comparable: each has its own table. */
        c->moment = 0;
        c->table = (uint32_t)index + 1;
    } else if (s->max_redeals == NONE) {
        /* A pass that removed a card may redeal, so it comes before every pass that did not. */
        c->moment = flag ? 0 : s->span;
        c->table = 0;
    } else {
        c->moment = (used - in->start_used) * s->span;
        c->table = 0;
    }
    c->waste_flags = last ? LAST_PASS : 0;
    for (int i = 1; last && i < len; i++)
        if (seq[i] < seq[i - 1]) c->waste_flags |= SHUFFLED;
    s->contexts[s->ncontexts++] = c;
    s->context_slots[j] = index;
    return index;
out_of_memory:
    s->memory_error = 1;
    return NONE;
}

/* -- hopeless proofs (pyramid_search.py: meets, class_feasible, _has_matching) ------------ */

static int covered_directly(const Input *in, int slot, int by) {
    return in->covered_by[slot][0] == by || in->covered_by[slot][1] == by;
}

static int meets(const Search *s, int a, int b, u64 waste) {
    const Input *in = s->in;
    if (a < s->size && b < s->size) {
        if (has(s->below[a], b)) return in->overlap && covered_directly(in, a, b);
        if (has(s->below[b], a)) return in->overlap && covered_directly(in, b, a);
        return 1;
    }
    if (has(waste, a) || has(waste, b)) return !(has(waste, a) && has(waste, b)) && in->waste_usable;
    return in->waste_usable || a < s->base || b < s->base;
}

static int crosses(int a, int b, const int *chosen, int nchosen) {
    for (int i = 0; i < nchosen; i++) {
        int c = chosen[2 * i], d = chosen[2 * i + 1];
        if ((c < a && a < d && d < b) || (a < c && c < b && b < d)) return 1;
    }
    return 0;
}

static int has_matching(const Search *s, const int *nodes, int count, u64 waste, u64 nested, int *chosen,
                        int nchosen) {
    if (!count) return 1;
    int first = nodes[0];
    const int *values = s->in->values;
    int others[MAX_CLASS];
    for (int j = 1; j < count; j++) {
        int partner = nodes[j];
        if (values[partner] + values[first] != TARGET || !meets(s, first, partner, waste)) continue;
        int inner = has(nested, first) && has(nested, partner);
        if (inner && crosses(first, partner, chosen, nchosen)) continue;
        int k = 0;
        for (int m = 1; m < count; m++)
            if (m != j) others[k++] = nodes[m];
        int added = nchosen;
        if (inner) {
            chosen[2 * nchosen] = first;
            chosen[2 * nchosen + 1] = partner;
            added++;
        }
        if (has_matching(s, others, k, waste, nested, chosen, added)) return 1;
    }
    return !has(s->required, first) && has_matching(s, nodes + 1, count - 1, waste, nested, chosen, nchosen);
}

/* Whether class c's cards in play can still all be matched; `waste`: 0 before the last pass,
 * in it the ids of the sequence before the moment, with the pass's Context.waste_flags. */
static int class_feasible(Search *s, int c, u64 live, u64 waste) {
    int k = s->class_n[c];
    /* 0 before the last pass, 1 in it, 2 in it after a reshuffle (no nesting by id then) */
    int last = !(waste & LAST_PASS) ? 0 : waste & SHUFFLED ? 2 : 1;
    /* Each card of the class is out, in play, or in play in the waste: a base-3 digit. */
    int here = 0, in_waste = 0;
    size_t index = 0, cases = 1;
    for (int i = 0; i < k; i++, cases *= 3) {
        int id = s->class_ids[c][i];
        if (has(live, id)) {
            here |= 1 << i;
            index += cases;
            if (has(waste, id)) {
                in_waste |= 1 << i;
                index += cases;
            }
        }
    }
    index += (size_t)last * cases;
    if (!s->class_table[c]) {
        s->class_table[c] = malloc(3 * cases);
        if (!s->class_table[c]) {
            s->memory_error = 1;
            return 1;
        }
        memset(s->class_table[c], -1, 3 * cases);
    }
    int8_t known = s->class_table[c][index];
    if (known < 0) {
        int nodes[MAX_CLASS], count = 0, chosen[2 * MAX_CLASS];
        u64 here_waste = 0;
        for (int i = 0; i < k; i++) {
            if (here >> i & 1) {
                nodes[count++] = s->class_ids[c][i];
                if (in_waste >> i & 1) here_waste |= (u64)1 << s->class_ids[c][i];
            }
        }
        known = (int8_t)has_matching(s, nodes, count, here_waste, last == 1 ? s->sequence_mask : 0, chosen, 0);
        s->class_table[c][index] = known;
    }
    return known;
}

static int hopeless(Search *s, u64 waste) {
    for (int c = 1; c < CLASSES; c++)
        if (s->class_n[c] && !class_feasible(s, c, s->live0, waste)) return 1;
    return 0;
}

/* -- the search ------------------------------------------------------------------------ */

/* rng.SeededRNG.shuffled, given the numbers its random() returns: Fisher-Yates from the last
 * place down, j = below(i + 1) = min(int(r * (i + 1)), i). */
static void shuffle(unsigned char *items, int k, const double *draws) {
    for (int i = k - 1, step = 0; i > 0; i--, step++) {
        int j = (int)(draws[step] * (i + 1));
        if (j > i) j = i;
        unsigned char swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

static int won(const Search *s, u64 live) {
    return !(s->in->clear_the_board ? live & s->tableau_mask : live);
}

/* 1 to go on, 0 when out of nodes or time (the search then unwinds with -1). */
static int tick(Search *s) {
    s->nodes++;
    if (s->nodes == s->budget) return 0;
    if (!(s->nodes & (CHECK_EVERY - 1)) && s->in->deadline >= 0 && now() > s->in->deadline) return 0;
    return 1;
}

static int whole_class(const Search *s, int c, u64 live, u64 available) {
    u64 here = live & s->class_mask[c];
    return !(here & ~available) && __builtin_popcountll(here & s->low_mask[c]) * 2 == __builtin_popcountll(here);
}

static int search(Search *s, u64 live, int p, int ctx);

/* PyramidSearch.smaller_game: the verdict of the smaller game `game` (a relaxation or a free
 * stock) within its own node limit, 1 won, 0 lost, RAN_OUT if the positions ran out, -1 out
 * of time or memory. Adds the positions it took to *spent. */
static int smaller_game(Search *s, const Input *game, long long *spent) {
    long long nodes = 0;
    int result = run_search(game, &nodes, NULL, &s->memory_error);
    if (s->memory_error) return -1;
    if (result < 0 && s->in->deadline >= 0 && now() > s->in->deadline) return -1;
    *spent += nodes;
    return result < 0 ? RAN_OUT : result;
}

/* PyramidSearch.freed: the position `live` with every stock and waste card in play moved to
 * the reserve, in order of ids, and no redeal. */
static void free_stock(const Input *in, u64 live, long long node_limit, Input *out) {
    *out = *in;
    int n = in->size;
    for (int i = 0; i < in->size; i++) out->values[i] = has(live, i) ? in->values[i] : 0;
    for (int i = in->size; i < in->n; i++)
        if (has(live, i) && in->values[i]) out->values[n++] = in->values[i];
    for (int i = n; i < MAX_IDS; i++) out->values[i] = 0;
    out->n = n;
    out->nreserve = n - in->size;
    out->seq_len = 0;
    out->start_p = out->start_used = out->redeals = 0;
    out->pass_removed = out->reshuffle = out->relax = out->fewer_passes_first = 0;
    out->draws = NULL;
    out->redeal_first = out->redeal_count = 0;
    out->node_limit = node_limit;
}

/* pyramid_search: lost_with_a_free_stock, within the search's own budget. 1 proven lost, 0
 * not, -1 aborted. */
static int lost_with_a_free_stock(Search *s, u64 live) {
    int32_t known = cache_get(&s->free_lost, live, 0);
    if (known != NONE) return known;
    long long limit = s->in->free_stock_nodes;
    if (s->budget > 0 && s->budget - s->nodes < limit) limit = s->budget - s->nodes;
    Input freed;
    free_stock(s->in, live, limit, &freed);
    int verdict = smaller_game(s, &freed, &s->nodes);
    if (verdict < 0) return -1;
    known = verdict == 0;
    if (!cache_put(&s->free_lost, live, 0, (u64)known)) {
        s->memory_error = 1;
        return -1;
    }
    if (s->budget > 0 && s->nodes >= s->budget) return -1;
    return known;
}

static void reduce(const Input *in, u64 live, int p, int used, int flag, int chosen_mask, long long nodes,
                   Input *out);

/* The next choice of k of n (ascending indices), in itertools.combinations' order: 0 after the
 * last. */
static int next_combination(int *index, int k, int n) {
    int i = k - 1;
    while (i >= 0 && index[i] == i + n - k) i--;
    if (i < 0) return 0;
    index[i]++;
    for (int j = i + 1; j < k; j++) index[j] = index[j - 1] + 1;
    return 1;
}

/* pyramid_search: lost_in_smaller_games, within the search's own budget: 1 proven lost, 0
 * not, -1 aborted. Each game's verdicts are kept by its cards in play, with its classes and
 * pass as the table, as (first moment known lost) | (last moment known open) << 6, each
 * counted from 1 (0: none known). */
static int lost_in_smaller_games(Search *s, u64 live, int p, const Context *pass) {
    const Input *in = s->in;
    int classes[CLASSES], n = 0;
    for (int c = 1; c < CLASSES; c++)
        if (live & s->class_mask[c]) classes[n++] = c;
    if (n <= CLASS_PROOF_SIZE) return 0; /* no game smaller than this one */
    int used = s->max_redeals == NONE ? 0 : pass->used;
    u64 before = (((u64)1 << p) - 1) << s->base; /* without reshuffle a pass's order is by id */
    int index[CLASS_PROOF_SIZE];
    for (int i = 0; i < CLASS_PROOF_SIZE; i++) index[i] = i;
    for (;;) {
        int mask = 0;
        u64 keep = 0;
        for (int i = 0; i < CLASS_PROOF_SIZE; i++) {
            mask |= 1 << classes[index[i]];
            keep |= s->class_mask[classes[index[i]]];
        }
        u64 key = live & (keep | s->kings);
        uint32_t table = (uint32_t)mask | (uint32_t)used << CLASSES;
        int moment = __builtin_popcountll(live & keep & before) + 1;
        int32_t known = cache_get(&s->smaller_lost, key, table);
        int lost_from = known < 0 ? 0 : known & 63, open_to = known < 0 ? 0 : known >> 6;
        if (lost_from && lost_from <= moment) return 1;
        if (moment > open_to) {
            long long limit = in->class_proof_nodes;
            if (s->budget > 0 && s->budget - s->nodes < limit) limit = s->budget - s->nodes;
            Input game;
            reduce(in, live, p, used, pass->flag, mask, limit, &game);
            int verdict = smaller_game(s, &game, &s->nodes);
            if (verdict < 0) return -1;
            if (verdict == 0) lost_from = moment;
            else if (verdict == 1 || limit == in->class_proof_nodes) open_to = moment;
            if (!cache_put(&s->smaller_lost, key, table, (u64)(lost_from | open_to << 6))) {
                s->memory_error = 1;
                return -1;
            }
            if (s->budget > 0 && s->nodes >= s->budget) return -1;
            if (verdict == 0) return 1;
        }
        if (!next_combination(index, CLASS_PROOF_SIZE, n)) return 0;
    }
}

/* pyramid_search: settled. Whether a position whose search is still going on, now at moment
 * p, is lost in a smaller game: tried once the search has passed CLASS_PROOFS_AFTER positions
 * in all and *due, then due again CLASS_PROOF_EVERY positions later; from
 * CLASS_PROOFS_CAPPED_AFTER positions on, not while more than 1 / CLASS_PROOF_SHARE of the
 * positions went to these games. 1 lost, 0 not proven, -1 aborted. */
static int settled(Search *s, u64 live, int p, const Context *pass, long long *due) {
    const Input *in = s->in;
    if (*due == NONE || s->nodes < *due || s->nodes < in->class_proofs_after) return 0;
    *due = s->nodes + in->class_proof_every;
    if (s->nodes >= in->class_proofs_capped_after && s->proof_nodes * in->class_proof_share > s->nodes) return 0;
    long long before = s->nodes;
    int lost = lost_in_smaller_games(s, live, p, pass);
    s->proof_nodes += s->nodes - before;
    return lost;
}

/* Whether a reserve card of i's rank with a lower id is in play: only the first of two
 * interchangeable reserve cards is ever played (pyramid_search: reserve_twin). */
static int reserve_twin(const Search *s, int i, u64 live) {
    for (int j = s->size; j < i; j++)
        if (has(live, j) && s->in->values[j] == s->in->values[i]) return 1;
    return 0;
}

/* Remove the King a (b = NONE) or the pair a, b at moment p, with `waste` as class_feasible
 * takes it: 1 won, 0 lost, -1 aborted. */
static int play_removal(Search *s, u64 live, int p, int ctx, int a, int b, int stock_top, u64 waste) {
    Context *pass = s->contexts[ctx];
    live &= ~((u64)1 << a);
    if (b >= 0) live &= ~((u64)1 << b);
    if (won(s, live)) return line_push(s, pair_code(a, b)) ? 1 : -1;
    cache_prefetch(&s->failed, live, pass->table);
    int c = s->class_of[a];
    if (c && !class_feasible(s, c, live, waste)) return 0;
    if (stock_top >= 0 && (a == stock_top || b == stock_top)) {
        p++;
        while (p < pass->len && !has(live, pass->seq[p])) p++;
    }
    /* Looked up once a pass: hashing its order at every removal took a tenth of the time. */
    if (pass->flagged < 0 && (pass->flagged = context(s, pass->used, 1, pass->seq, pass->len)) < 0) return -1;
    int next = pass->flagged;
    int result = search(s, live, p, next);
    if (result == 1 && !line_push(s, pair_code(a, b))) return -1;
    return result;
}

static int push_draws(Search *s, int draws) {
    for (int i = 0; i < draws; i++)
        if (!line_push(s, -1)) return -1;
    return 1;
}

static int search(Search *s, u64 live, int p, int ctx) {
    const Input *in = s->in;
    const int *values = in->values;
    const Context *pass = s->contexts[ctx]; /* contexts never move: each is its own block */
    const unsigned char *seq = pass->seq;
    int size = s->size, base = s->base, length = pass->len;
    int used = pass->used, flag = pass->flag, moment = pass->moment;
    int last = pass->waste_flags != 0;
    int reshuffle = in->reshuffle;
    /* A reshuffle ahead makes removals from the stock and waste matter to its order. */
    int shuffle_ahead = reshuffle && !last;
    /* The waste as class_feasible takes it; kept up to date with p (gone ids may stay in it). */
    u64 waste = 0;
    if (last && !reshuffle) {
        waste = LAST_PASS | (((u64)1 << p) - 1) << base; /* the only order: ids from base */
    } else if (last) {
        waste = pass->waste_flags;
        for (int i = 0; i < p; i++) waste |= (u64)1 << seq[i];
    }
    u64 key = live;
    uint32_t table = pass->table;
    int known = cache_get(&s->failed, key, table);
    int start = moment + p;
    if (known >= 0 && known <= start) return 0;
    if (!tick(s)) return -1;
    if (s->memory_error) return -1;
    /* When this position is to be tried on the smaller games, if its search is still going on
     * (settled); they need the first pass's order, so never with reshuffle. */
    long long due = in->relax && !reshuffle ? s->nodes + in->class_proof_every : NONE;
    if (shuffle_ahead) {
        int lost = lost_with_a_free_stock(s, live);
        if (lost < 0) return -1;
        if (lost) {
            record_failure(s, key, table, known, start);
            return 0;
        }
    }

    int stock_top = p < length ? seq[p] : NONE;
    int q = p - 1;
    while (q >= 0 && !has(live, seq[q])) q--;
    int waste_top = q >= 0 ? seq[q] : NONE;

    u64 tableau = live & s->tableau_mask;
    int exposed[MAX_SLOTS], nexposed = 0;
    u64 exposed_mask = 0;
    for (int k = size - 1; k >= 0; k--) {
        if (!has(tableau, k)) continue;
        int c0 = in->covered_by[k][0], c1 = in->covered_by[k][1];
        if ((c0 >= 0 && has(tableau, c0)) || (c1 >= 0 && has(tableau, c1))) continue;
        exposed[nexposed++] = k;
        exposed_mask |= (u64)1 << k;
    }
    int overlaps[2 * MAX_SLOTS], noverlaps = 0;
    if (in->overlap) {
        for (int e = 0; e < nexposed; e++) {
            int top = exposed[e];
            for (int m = 0; m < 2; m++) {
                int under = in->covers[top][m];
                if (under < 0 || !has(tableau, under) || values[under] + values[top] != TARGET) continue;
                int other = in->covered_by[under][0] == top ? in->covered_by[under][1] : in->covered_by[under][0];
                if (other >= 0 && has(tableau, other)) continue;
                overlaps[2 * noverlaps] = under;
                overlaps[2 * noverlaps + 1] = top;
                noverlaps++;
            }
        }
    }
    u64 reserve_live = live & s->reserve_mask;
    u64 fixed = exposed_mask | reserve_live;

    int avail[MAX_SLOTS + 16], navail = 0;
    for (int e = 0; e < nexposed; e++) avail[navail++] = exposed[e];
    /* The values of the cards other than reserve cards available now: a reserve card of one
     * of them gives way to it (pyramid_search: reserve_gives_way). */
    u64 loose = 0;
    for (int e = 0; e < nexposed; e++) loose |= (u64)1 << values[exposed[e]];
    if (!shuffle_ahead && stock_top >= 0) loose |= (u64)1 << values[stock_top];
    if (!shuffle_ahead && waste_top >= 0 && in->waste_usable) loose |= (u64)1 << values[waste_top];
    for (int i = size; i < base; i++)
        if (has(reserve_live, i) && !(values[i] != KING && has(loose, values[i])) && !reserve_twin(s, i, live))
            avail[navail++] = i;
    u64 available = fixed;
    if (stock_top >= 0) {
        avail[navail++] = stock_top;
        available |= (u64)1 << stock_top;
    }
    if (waste_top >= 0 && in->waste_usable) {
        avail[navail++] = waste_top;
        available |= (u64)1 << waste_top;
    }
    int kings[MAX_SLOTS + 16], nkings = 0;
    int pairs[2 * 128], npairs = 0;
    for (int i = 0; i < navail; i++) {
        int a = avail[i];
        if (values[a] == KING) {
            kings[nkings++] = a;
            continue;
        }
        for (int j = 0; j < i; j++) {
            int b = avail[j];
            if (values[b] + values[a] == TARGET) {
                pairs[2 * npairs] = b;
                pairs[2 * npairs + 1] = a;
                npairs++;
            }
        }
    }
    int result;
    if (nkings || npairs) {
        int fa = NONE, fb = NONE;
        for (int i = 0; i < nkings; i++) {
            if (!shuffle_ahead || (s->max_redeals != NONE && kings[i] < base)) {
                fa = kings[i];
                break;
            }
        }
        if (fa == NONE && (!shuffle_ahead || s->max_redeals != NONE)) {
            for (int i = 0; i < npairs; i++) {
                int c = s->class_of[pairs[2 * i]];
                if (whole_class(s, c, live, available) &&
                    (!shuffle_ahead || !(live & s->class_mask[c] & s->sequence_mask))) {
                    fa = pairs[2 * i];
                    fb = pairs[2 * i + 1];
                    break;
                }
            }
        }
        if (fa != NONE) {
            result = play_removal(s, live, p, ctx, fa, fb, stock_top, waste);
            if (result) return result;
            record_failure(s, key, table, known, start);
            return 0;
        }
    }
    /* pyramid_search.removal_weight times the order (a stable sort, as Python's). */
    int weights[128];
    for (int i = 0; i < npairs; i++) {
        weights[i] = 0;
        for (int m = 0; m < 2; m++) {
            int id = pairs[2 * i + m];
            weights[i] += id >= base ? 2 : id >= size ? -1 : 0;
        }
        weights[i] *= s->order;
    }
    for (int i = 1; i < npairs; i++) {
        int w = weights[i], a = pairs[2 * i], b = pairs[2 * i + 1], j = i - 1;
        while (j >= 0 && weights[j] > w) {
            weights[j + 1] = weights[j];
            pairs[2 * (j + 1)] = pairs[2 * j];
            pairs[2 * (j + 1) + 1] = pairs[2 * j + 1];
            j--;
        }
        weights[j + 1] = w;
        pairs[2 * (j + 1)] = a;
        pairs[2 * (j + 1) + 1] = b;
    }
    for (int i = 0; i < nkings + npairs + noverlaps; i++) {
        int j = i - nkings, k = j - npairs;
        int a = j < 0 ? kings[i] : k < 0 ? pairs[2 * j] : overlaps[2 * k];
        int b = j < 0 ? NONE : k < 0 ? pairs[2 * j + 1] : overlaps[2 * k + 1];
        if ((result = play_removal(s, live, p, ctx, a, b, stock_top, waste))) return result;
        if ((result = settled(s, live, p, pass, &due))) {
            if (result < 0) return -1;
            record_failure(s, key, table, known, start);
            return 0;
        }
    }

    /* The later moments of this pass: only moves with the new stock top are new. */
    int draws = 0;
    int stop = known > start ? known : NONE;
    while (stock_top >= 0) {
        if (last) {
            int c = s->class_of[stock_top];
            waste |= (u64)1 << stock_top;
            if (c && !class_feasible(s, c, live, waste)) break;
        }
        waste_top = stock_top;
        p++;
        while (p < length && !has(live, seq[p])) p++;
        draws++;
        if (p == length) {
            stock_top = NONE;
            break;
        }
        if (stop >= 0 && stop <= moment + p) break;
        if (!tick(s)) return -1;
        if ((result = settled(s, live, p, pass, &due))) {
            if (result < 0) return -1;
            record_failure(s, key, table, known, start);
            return 0;
        }
        stock_top = seq[p];
        int v = values[stock_top];
        if (v == KING) {
            result = play_removal(s, live, p, ctx, stock_top, NONE, stock_top, waste);
            if (result == 1) return push_draws(s, draws);
            if (result < 0) return -1;
            if (shuffle_ahead) continue;
            record_failure(s, key, table, known, start);
            return 0;
        }
        int w = TARGET - v, partners[MAX_SLOTS + 16], npartners = 0;
        for (int e = 0; e < nexposed; e++)
            if (values[exposed[e]] == w) partners[npartners++] = exposed[e];
        /* A reserve card gives way to a tableau card of its value, or to the waste top when no
         * shuffle is ahead (pyramid_search: reserve_gives_way). */
        if (!npartners && !(in->waste_usable && !shuffle_ahead && values[waste_top] == w))
            for (int i = size; i < base; i++)
                if (has(reserve_live, i) && values[i] == w && !reserve_twin(s, i, live)) partners[npartners++] = i;
        if (in->waste_usable && values[waste_top] == w) partners[npartners++] = waste_top;
        if (!npartners) continue;
        u64 here = fixed | (u64)1 << stock_top | (in->waste_usable ? (u64)1 << waste_top : 0);
        int all_here = !shuffle_ahead && whole_class(s, s->class_of[stock_top], live, here);
        for (int i = 0; i < npartners; i++) {
            result = play_removal(s, live, p, ctx, partners[i], stock_top, stock_top, waste);
            if (result == 1) return push_draws(s, draws);
            if (result < 0) return -1;
            if (all_here) {
                record_failure(s, key, table, known, start);
                return 0;
            }
        }
    }

    if (stock_top < 0 && waste_top >= 0 &&
        (s->max_redeals == NONE ? flag : used < s->max_redeals && (flag || reshuffle))) {
        int first = 0, next;
        if (reshuffle) {
            unsigned char order[MAX_SEQ];
            int k = 0;
            for (int i = 0; i < length; i++)
                if (has(live, seq[i])) order[k++] = seq[i];
            int u = used + 1 - in->redeal_first;
            if (u < 1 || u > in->redeal_count || k > s->seq_len) {
                s->input_error = 1;
                return -1;
            }
            shuffle(order, k, in->draws + (size_t)(u - 1) * (size_t)(s->seq_len - 1));
            next = context(s, used + 1, 0, order, k);
        } else {
            while (!has(live, seq[first])) first++;
            next = context(s, used + 1, 0, seq, length);
        }
        if (next < 0) return -1;
        result = search(s, live, first, next);
        if (result < 0) return -1;
        if (result == 1) {
            if (!line_push(s, -2)) return -1;
            return push_draws(s, draws);
        }
    }
    record_failure(s, key, table, known, start);
    return 0;
}

/* -- smaller games (pyramid_search.py: relaxations, reduced) ---------------------------- */

static int class_of_value(int v) { return v && v != KING ? (v < TARGET - v ? v : TARGET - v) : 0; }

/* PyramidSearch.reduced: the position `live` at moment p of a pass (the first pass's order,
 * by id) with `used` redeals and its `flag`, keeping the cards of the classes of chosen_mask
 * and the tableau's Kings. */
static void reduce(const Input *in, u64 live, int p, int used, int flag, int chosen_mask, long long nodes,
                   Input *out) {
    *out = *in;
    int kept = 0, n = in->size + in->nreserve, waste = 0;
    for (int i = 0; i < n; i++) {
        int c = class_of_value(in->values[i]);
        int king = in->values[i] == KING && i < in->size;
        out->values[i] = has(live, i) && (king || (c && chosen_mask >> c & 1)) ? in->values[i] : 0;
    }
    for (int i = 0; i < in->seq_len; i++) {
        int v = in->values[n + i];
        int c = class_of_value(v);
        if (!has(live, n + i) || !(c && chosen_mask >> c & 1)) continue;
        out->values[n + kept++] = v;
        if (i < p) waste++;
    }
    for (int i = n + kept; i < MAX_IDS; i++) out->values[i] = 0;
    out->n = n + kept;
    out->seq_len = kept;
    out->start_p = waste;
    out->start_used = used;
    out->pass_removed = flag;
    if (in->redeals == NONE) out->redeals = used + UNLIMITED_STAND_IN;
    out->node_limit = nodes;
    out->relax = out->fewer_passes_first = 0;
}

/* PyramidSearch.known_not_lost: whether the smaller game keeping the classes of `mask` would
 * prove nothing within `allowed` positions, from the games played before. */
static int known_not_lost(const Search *s, int mask, long long allowed) {
    if (s->ran_out[mask] >= allowed) return 1;
    for (int won = mask; won < 1 << CLASSES; won = (won + 1) | mask)
        if (s->won_games[won]) return 1;
    return 0;
}

/* Whether the smaller games keeping `size` classes prove the position lost (1) or not (0),
 * -1 out of time; adds their positions to *spent, at most `room` of them (NONE: no bound).
 * `fewer_passes`: each game tries its position with fewer passes first. */
static int relaxations(Search *s, int size, long long each, long long room, int fewer_passes, long long *spent) {
    int classes[CLASSES], nclasses = 0;
    for (int c = 1; c < CLASSES; c++)
        if (s->class_n[c]) classes[nclasses++] = c;
    if (size > nclasses) return 0;
    int index[CLASSES];
    for (int i = 0; i < size; i++) index[i] = i;
    Input reduced;
    long long first = *spent;
    for (;;) {
        int mask = 0;
        for (int i = 0; i < size; i++) mask |= 1 << classes[index[i]];
        long long allowed = each;
        if (room != NONE && room - (*spent - first) < allowed) allowed = room - (*spent - first);
        if (allowed <= 0) return 0;
        if (!known_not_lost(s, mask, allowed)) {
            reduce(s->in, s->live0, s->in->start_p, s->in->start_used, s->in->pass_removed, mask, allowed, &reduced);
            reduced.fewer_passes_first = fewer_passes;
            int verdict = smaller_game(s, &reduced, spent);
            if (verdict <= 0) return verdict < 0 ? -1 : 1;
            if (verdict == 1) s->won_games[mask] = 1;
            else s->ran_out[mask] = allowed;
        }
        if (!next_combination(index, size, nclasses)) return 0;
    }
}

/* -- one search from one position --------------------------------------------------------- */

static void setup(Search *s, const Input *in) {
    memset(s, 0, sizeof *s);
    s->in = in;
    s->size = in->size;
    s->base = in->size + in->nreserve;
    s->seq_len = in->seq_len;
    s->span = in->seq_len + 1;
    for (int i = 0; i < in->n; i++)
        if (in->values[i]) s->live0 |= (u64)1 << i;
    s->tableau_mask = ((u64)1 << in->size) - 1;
    s->reserve_mask = (((u64)1 << s->base) - 1) & ~s->tableau_mask;
    s->sequence_mask = (((u64)1 << in->n) - 1) & ~(((u64)1 << s->base) - 1);
    for (int k = in->size - 1; k >= 0; k--) {
        for (int m = 0; m < 2; m++) {
            int j = in->covered_by[k][m];
            if (j >= 0 && has(s->live0, j)) s->below[k] |= (u64)1 << j | s->below[j];
        }
    }
    s->max_redeals = in->redeals;
    if (in->redeals != NONE && !in->reshuffle && in->redeals - in->start_used > in->n) s->max_redeals = NONE;
    s->start_flag = in->pass_removed || (in->redeals != NONE && in->start_p > 0);
    for (int i = 0; i < in->n; i++) {
        int c = class_of_value(in->values[i]);
        s->class_of[i] = c;
        if (!c) continue;
        s->class_ids[c][s->class_n[c]++] = i;
        s->class_mask[c] |= (u64)1 << i;
        if (in->values[i] == c) s->low_mask[c] |= (u64)1 << i;
    }
    s->required = in->clear_the_board ? s->tableau_mask : (((u64)1 << in->n) - 1);
    s->budget = in->node_limit;
    s->order = 1;
    s->failed.young.with_tables = s->failed.old.with_tables = in->reshuffle;
    s->failed.limit = s->free_lost.limit = s->smaller_lost.limit = in->failure_limit;
    s->smaller_lost.young.with_tables = s->smaller_lost.old.with_tables = 1;
    for (int i = 0; i < in->size; i++)
        if (in->values[i] == KING) s->kings |= (u64)1 << i;
}

static void teardown(Search *s) {
    cache_free(&s->failed);
    cache_free(&s->free_lost);
    cache_free(&s->smaller_lost);
    for (size_t i = 0; i < s->ncontexts; i++) free(s->contexts[i]);
    free(s->contexts);
    free(s->context_slots);
    for (int c = 0; c < CLASSES; c++) free(s->class_table[c]);
}

/* pyramid_search.run's room: the positions the node limit leaves (never below 0 where the
 * stages ask), NONE without a limit. */
static long long room(const Input *in, long long nodes, long long relaxed) {
    return in->node_limit == NONE ? NONE : in->node_limit - nodes - relaxed;
}

/* PyramidSearch.run: 1 won, 0 lost, -1 out of nodes or time (or memory). */
static int run_search(const Input *in, long long *nodes_out, Line *line_out, int *memory_error) {
    Search s;
    setup(&s, in);
    int result;
    long long relaxed = 0;
    if (won(&s, s.live0)) {
        result = 1;
        goto done;
    }
    /* The first pass's order is by id: its waste at moment p is ids base .. base + p - 1. */
    int last = s.max_redeals != NONE && in->start_used == s.max_redeals;
    if (hopeless(&s, last ? LAST_PASS | (((u64)1 << in->start_p) - 1) << s.base : 0)) {
        s.nodes = 1;
        result = 0;
        goto done;
    }
    int p = in->start_p;
    while (p < s.seq_len && !has(s.live0, s.base + p)) p++;
    unsigned char first_sequence[MAX_SEQ];
    for (int i = 0; i < s.seq_len; i++) first_sequence[i] = (unsigned char)(s.base + i);
    int ctx = context(&s, in->start_used, s.start_flag, first_sequence, s.seq_len);
    if (ctx < 0) {
        result = -1;
        goto done;
    }
    /* The search runs on between stops: the next stage's proofs, the next switch of order,
     * the end of a run with fewer passes, the node limit (pyramid_search.run). */
    int staged = in->relax && !in->reshuffle, free_stock_tried = 0, stage = 0;
    int nstages = staged ? in->nstages : 0;
    long long switch_at = staged ? in->order_from : NONE;
    /* With fewer passes (pyramid_search.run): the redeals the position is searched as having
     * used (NONE: as it is), and where that run ends (NONE: at the node limit). */
    int fewer = NONE;
    long long fewer_end = NONE;
    int more_passes = !in->reshuffle && s.max_redeals != NONE && s.max_redeals > in->start_used;
    if (in->fewer_passes_first && more_passes) fewer = s.max_redeals;
    for (;;) {
        /* A run with fewer passes goes on in one order: a switch due meanwhile comes after it. */
        if (fewer == NONE && switch_at != NONE && s.nodes >= switch_at) {
            s.order = -s.order;
            switch_at = s.nodes + in->order_run;
        }
        int limited = in->node_limit != NONE;
        if (stage < nstages && limited && in->node_limit <= in->stages[stage].after + relaxed) stage = nstages;
        long long end = limited ? in->node_limit - relaxed : NONE;
        if (limited && end <= s.nodes) {
            result = -1;
            goto done;
        }
        long long stop = NONE;
        long long points[4] = {stage < nstages ? in->stages[stage].after : NONE, fewer == NONE ? switch_at : NONE, end,
                               fewer_end};
        for (int i = 0; i < 4; i++)
            if (points[i] != NONE && (stop == NONE || points[i] < stop)) stop = points[i];
        s.budget = stop;
        int root = fewer == NONE ? ctx : context(&s, fewer, s.start_flag, first_sequence, s.seq_len);
        result = root < 0 ? -1 : search(&s, s.live0, p, root);
        if (result == 0 && fewer != NONE) { /* lost with that few passes: one more */
            if (--fewer == in->start_used) fewer = fewer_end = NONE;
            continue;
        }
        if (result >= 0 || s.memory_error || s.input_error) goto done;
        if (stop == NONE || s.nodes < stop || (limited && stop == end)) goto done; /* out of time or nodes */
        if (s.nodes == fewer_end) fewer = fewer_end = NONE;
        if (stage < nstages && s.nodes == in->stages[stage].after) {
            const Stage *st = &in->stages[stage++];
            int proven = 0;
            if (st->after >= in->free_stock_after && !free_stock_tried) {
                free_stock_tried = 1;
                Input freed;
                long long limit = in->free_stock_nodes;
                long long left = room(in, s.nodes, relaxed);
                if (left != NONE && left < limit) limit = left;
                free_stock(in, s.live0, limit, &freed);
                int verdict = smaller_game(&s, &freed, &relaxed);
                proven = verdict < 0 ? -1 : verdict == 0;
            }
            int late = st->after >= in->fewer_passes_after;
            for (int i = 0; i < st->nsizes && !proven; i++)
                proven = relaxations(&s, st->sizes[i], st->each, room(in, s.nodes, relaxed), late, &relaxed);
            if (proven) {
                result = proven > 0 ? 0 : -1;
                goto done;
            }
            if (late && more_passes) {
                fewer = s.max_redeals;
                fewer_end = s.nodes + in->fewer_passes_nodes;
            }
        }
    }
done:
    if (s.memory_error || s.input_error) {
        *memory_error = s.memory_error ? 1 : 2;
        result = -1;
    }
    *nodes_out = s.nodes + relaxed;
    if (line_out) {
        *line_out = s.line;
    } else {
        free(s.line.items);
    }
    teardown(&s);
    return result;
}

/* -- the Python side ------------------------------------------------------------------------ */

static int read_slots(PyObject *bytes, int size, int out[MAX_SLOTS][2], const char *what) {
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != 2 * size) {
        PyErr_Format(PyExc_ValueError, "%s: %d slots of 2 bytes expected", what, size);
        return 0;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (int k = 0; k < size; k++)
        for (int m = 0; m < 2; m++) out[k][m] = raw[2 * k + m] == 255 ? NONE : raw[2 * k + m];
    return 1;
}

/* Reads ((after, (size, ...), each), ...) into in->stages. */
static int read_stages(PyObject *spec, Input *in) {
    PyObject *seq = PySequence_Fast(spec, "stages: a sequence expected");
    if (!seq) return 0;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int ok = count <= MAX_STAGES;
    for (Py_ssize_t i = 0; ok && i < count; i++) {
        PyObject *sizes;
        Stage *stage = &in->stages[i];
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "LOL", &stage->after, &sizes, &stage->each);
        PyObject *items = ok ? PySequence_Fast(sizes, "sizes: a sequence expected") : NULL;
        ok = items && PySequence_Fast_GET_SIZE(items) <= CLASSES;
        for (Py_ssize_t j = 0; ok && j < PySequence_Fast_GET_SIZE(items); j++) {
            stage->sizes[j] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(items, j));
            ok = !PyErr_Occurred() && stage->sizes[j] > 0 && stage->sizes[j] < CLASSES;
        }
        if (ok) stage->nsizes = (int)PySequence_Fast_GET_SIZE(items);
        Py_XDECREF(items);
    }
    Py_DECREF(seq);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "stages: at most 8 of (after, sizes 1-6, each)");
        return 0;
    }
    in->nstages = (int)count;
    return 1;
}

static PyObject *py_run(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values, *covered_by, *covers, *stage_spec, *draws;
    Input in;
    memset(&in, 0, sizeof in);
    if (!PyArg_ParseTuple(args, "O!iiiiiippppOOLdppOO!iiLLLLLLLLLLLL", &PyBytes_Type, &values, &in.size, &in.nreserve,
                          &in.start_p, &in.start_used, &in.redeals, &in.pass_removed, &in.clear_the_board,
                          &in.waste_usable, &in.overlap, &in.reshuffle, &covered_by, &covers, &in.node_limit,
                          &in.deadline, &in.relax, &in.fewer_passes_first, &stage_spec, &PyBytes_Type, &draws,
                          &in.redeal_first, &in.redeal_count, &in.failure_limit, &in.free_stock_nodes,
                          &in.free_stock_after, &in.order_from, &in.order_run, &in.class_proofs_after,
                          &in.class_proof_nodes,
                          &in.class_proof_every, &in.class_proofs_capped_after, &in.class_proof_share,
                          &in.fewer_passes_after, &in.fewer_passes_nodes))
        return NULL;
    if (in.order_run < 1 || in.order_from < 1 || in.class_proof_nodes < 1 || in.class_proof_every < 1 ||
        in.class_proof_share < 1 || in.fewer_passes_nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "order_from, order_run, class_proof_nodes, class_proof_every, "
                                          "class_proof_share, fewer_passes_nodes: at least 1");
        return NULL;
    }
    if (in.failure_limit < 1) {
        PyErr_SetString(PyExc_ValueError, "failure_limit: at least 1");
        return NULL;
    }
    if (!read_stages(stage_spec, &in)) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(values);
    if (n > MAX_IDS || in.size < 0 || in.size > MAX_SLOTS || in.nreserve < 0 || in.size + in.nreserve > n ||
        in.start_p < 0 || in.start_p > n - in.size - in.nreserve) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    in.n = (int)n;
    in.seq_len = in.n - in.size - in.nreserve;
    Py_ssize_t per_redeal = in.seq_len > 0 ? in.seq_len - 1 : 0;
    if (in.seq_len > MAX_SEQ || in.redeal_count < 0 ||
        PyBytes_GET_SIZE(draws) != (Py_ssize_t)sizeof(double) * in.redeal_count * per_redeal) {
        PyErr_SetString(PyExc_ValueError, "draws: redeal_count x (sequence length - 1) doubles expected");
        return NULL;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(values);
    for (int i = 0; i < in.n; i++) {
        if (raw[i] > KING) {
            PyErr_SetString(PyExc_ValueError, "card values are 0 (no card) to 13");
            return NULL;
        }
        in.values[i] = raw[i];
    }
    if (!read_slots(covered_by, in.size, in.covered_by, "covered_by") || !read_slots(covers, in.size, in.covers, "covers"))
        return NULL;

    /* A copy: a bytes object's buffer need not be aligned for doubles. */
    double *draw_copy = malloc((size_t)PyBytes_GET_SIZE(draws) + sizeof(double));
    if (!draw_copy) return PyErr_NoMemory();
    memcpy(draw_copy, PyBytes_AS_STRING(draws), (size_t)PyBytes_GET_SIZE(draws));
    for (Py_ssize_t i = 0; i < in.redeal_count * per_redeal; i++) {
        if (!(draw_copy[i] >= 0.0 && draw_copy[i] < 1.0)) {
            free(draw_copy);
            PyErr_SetString(PyExc_ValueError, "draws: numbers in [0, 1) expected");
            return NULL;
        }
    }
    in.draws = draw_copy;

    long long nodes = 0;
    Line line = {0};
    int memory_error = 0, result;
    Py_BEGIN_ALLOW_THREADS
    result = run_search(&in, &nodes, &line, &memory_error);
    Py_END_ALLOW_THREADS
    free(draw_copy);
    if (memory_error) {
        free(line.items);
        if (memory_error == 2) {
            PyErr_SetString(PyExc_ValueError, "a redeal beyond the draws given");
            return NULL;
        }
        return PyErr_NoMemory();
    }
    PyObject *items = PyList_New((Py_ssize_t)(result == 1 ? line.len : 0));
    if (!items) {
        free(line.items);
        return NULL;
    }
    for (size_t i = 0; result == 1 && i < line.len; i++) {
        PyObject *item = PyLong_FromLong(line.items[i]);
        if (!item) {
            Py_DECREF(items);
            free(line.items);
            return NULL;
        }
        PyList_SET_ITEM(items, (Py_ssize_t)i, item);
    }
    free(line.items);
    return Py_BuildValue("iLN", result, nodes, items);
}

static PyMethodDef methods[] = {
    {"run", py_run, METH_VARARGS, "run(position...) -> (status, positions, line): see the module source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_pyramid_core",
    .m_doc = "The compiled Pyramid search (see pyramid_search.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__pyramid_core(void) { return PyModule_Create(&module); }
