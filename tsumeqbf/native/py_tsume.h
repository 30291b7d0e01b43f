// The Python type Tsume: an unbounded search whose tables last between calls (the
// searches for a shorter line after a proof go on in them).

#pragma once

#include "py_game.h"
#include "tsume.h"

namespace {

// Tsume(board, hands, turn, tt_limit, mobility, group_drops, dag=True, inherit=True): the unbounded
// search from the position, its tables kept between calls
struct TsumeObject {
    PyObject_HEAD
    UnboundedSearch* search;
    bool busy;
    uint64_t root_key;
    Dom root;
};

int tsume_init(TsumeObject* self, PyObject* args, PyObject*) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn, mobility, group_drops, dag = 1, inherit = 1, group_interpositions = 0;
    long long tt_limit;
    if (!PyArg_ParseTuple(args, "y#y#iLpp|ppp", &board, &nb, &hands, &nh, &turn, &tt_limit,
                          &mobility, &group_drops, &dag, &inherit, &group_interpositions))
        return -1;
    if (tt_limit < 2) {
        PyErr_SetString(PyExc_ValueError, "tt_limit must be at least 2");
        return -1;
    }
    auto* search = new UnboundedSearch();
    if (!load_position(board, nb, hands, nh, turn, search->pos)) { delete search; return -1; }
    search->attacker = turn;
    search->table.limit = (size_t)tt_limit;
    search->twin_limit = (size_t)tt_limit;
    search->mobility = mobility;
    search->group_drops = group_drops;
    search->dag = dag;
    search->inherit = inherit;
    search->group_interpositions = group_interpositions;
    delete self->search;
    self->search = search;
    self->busy = false;
    self->root_key = search->pos.key();
    self->root = search->dom();
    return 0;
}

void tsume_dealloc(TsumeObject* self) {
    delete self->search;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

// runs body() with the call's limits: (verdict True/False/None, reason); NULL with the
// exception of a signal or of the tick
template <class F>
PyObject* tsume_run(TsumeObject* self, long long max_nodes, double seconds, PyObject* tick,
                    long long tick_every, F&& body) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is already running");
        return nullptr;
    }
    UnboundedSearch& s = *self->search;
    s.max_nodes = max_nodes;
    s.seconds = seconds;
    s.tick = tick == Py_None ? nullptr : tick;
    s.tick_every = std::max(1LL, tick_every);
    self->busy = true;
    std::string reason;
    int verdict = guarded(body, reason);
    self->busy = false;
    s.tick = nullptr;
    if (verdict == -2) return nullptr;
    return Py_BuildValue("Ns", verdict_object(verdict), reason.c_str());
}

// solve(max_nodes, seconds, tick=None, tick_every=4096): the root; max_nodes counts every
// node of this search (-1: no limit), seconds this call's (-1: none)
PyObject* tsume_solve(TsumeObject* self, PyObject* args) {
    long long max_nodes, tick_every = 4096;
    double seconds;
    PyObject* tick = Py_None;
    if (!PyArg_ParseTuple(args, "Ld|OL", &max_nodes, &seconds, &tick, &tick_every)) return nullptr;
    return tsume_run(self, max_nodes, seconds, tick, tick_every,
                     [self] { return self->search->solve(); });
}

// solve_below(line, max_nodes, seconds, tick=None, tick_every=4096): the node `line`
// (legal moves from the root) leads to
PyObject* tsume_solve_below(TsumeObject* self, PyObject* args) {
    PyObject *seq, *tick = Py_None;
    long long max_nodes, tick_every = 4096;
    double seconds;
    if (!PyArg_ParseTuple(args, "OLd|OL", &seq, &max_nodes, &seconds, &tick, &tick_every))
        return nullptr;
    PyObject* fast = PySequence_Fast(seq, "line must be a sequence of moves");
    if (!fast) return nullptr;
    std::vector<int> line;
    Position& p = self->search->pos;
    bool legal = true;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast) && legal; ++i) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (m == -1 && PyErr_Occurred()) break;
        std::vector<int> moves;
        p.legal_moves(moves);
        legal = std::find(moves.begin(), moves.end(), (int)m) != moves.end();
        if (legal) { p.push((int)m); line.push_back((int)m); }
    }
    for (size_t i = 0; i < line.size(); ++i) p.pop();
    Py_DECREF(fast);
    if (PyErr_Occurred()) return nullptr;
    if (!legal) {
        PyErr_SetString(PyExc_ValueError, "line holds an illegal move");
        return nullptr;
    }
    return tsume_run(self, max_nodes, seconds, tick, tick_every,
                     [self, &line] { return self->search->solve_below(line); });
}

PyObject* tsume_proof_seq(TsumeObject* self, PyObject* arg) {
    Dom d;
    if (!parse_dominance(arg, d)) return nullptr;
    const BoardTable::Entry* e = self->search->proof_covering(d);
    if (!e) Py_RETURN_NONE;
    return PyLong_FromLongLong(e->s.seq);
}

PyObject* tsume_is_disproven(TsumeObject* self, PyObject* arg) {
    Dom d;
    if (!parse_dominance(arg, d)) return nullptr;
    return PyBool_FromLong(self->search->disproof_covering(d) != nullptr);
}

// a proof's sequence number at p (negative for a seed's), NO_PROOF when p is not proven
constexpr int64_t NO_PROOF = INT64_MIN;
int64_t proof_seq_at(const UnboundedSearch& s, const Position& p, int attacker) {
    const BoardTable::Entry* e = s.proof_covering(dominance_of(p, attacker));
    return e ? e->s.seq : NO_PROOF;
}

// the search is not running (a RuntimeError set when it is)
bool idle(const TsumeObject* self) {
    if (self->busy) PyErr_SetString(PyExc_RuntimeError, "the search is running");
    return !self->busy;
}

PyObject* tsume_line(TsumeObject* self, PyObject*) {
    if (!idle(self)) return nullptr;
    return move_list(self->search->line());
}

// the moves from the root to the node being searched (read from a tick)
PyObject* tsume_current_line(TsumeObject* self, PyObject*) {
    std::vector<int> moves;
    for (const Undo& u : self->search->pos.stack) moves.push_back(u.move);
    return move_list(moves);
}

PyObject* tsume_root_numbers(TsumeObject* self, PyObject*) {
    int64_t pn, dn;
    self->search->root_numbers(self->root_key, self->root, pn, dn);
    return Py_BuildValue("LL", (long long)pn, (long long)dn);
}

// (nodes, tt_hits, unsolved entries, proofs, disproofs, twins)
PyObject* tsume_stats(TsumeObject* self, PyObject*) {
    const UnboundedSearch& s = *self->search;
    return Py_BuildValue("LLnLLn", (long long)s.nodes, (long long)s.tt_hits,
                         (Py_ssize_t)s.table.unsolved, (long long)s.n_proofs,
                         (long long)s.n_disproofs, (Py_ssize_t)s.twins.size());
}

}  // namespace
