// The native core: standard 9x9 shogi move generation and the bounded and unbounded df-pn
// searches, in C++17 through the Python C API (no build requirement beyond setuptools and a
// C++ compiler). This file is the module (its functions, Tsume's method table, the types
// made ready); its parts are the headers it includes, one translation unit, so that the
// compiler sees the whole search at once (the move generation inlined into the node loop):
//   board.h          encodings, move tables, Zobrist keys
//   position.h       the position: make/undo, legal moves, checks, reply counts
//   search.h         what both searches share: numbers, limits, the tick, Ctrl-C
//   bounded.h        the bounded search, Mate(P, n) exactly
//   tsume_table.h    the unbounded search's hands and its table by board
//   tsume_sets.h     its path, twins and caches
//   tsume.h          the unbounded search
//   tsume_file.h     its tables to a file and back (checkpoints)
//   py_common.h      what the Python doors share
//   py_game.h        the Python type Game
//   py_ranking.h     the Python type Ranking: the answer's rankings, a mapping
//   py_tsume.h       the Python type Tsume (py_answer.h: its walks for the answer,
//                    py_checkpoint.h: its save, load and add_proofs)
//   py_fold.h        the dag-fold listing's counts
//
// Written from tsumeqbf/rules/position.py, tsumeqbf/dfpn/core.py and tsume.py and
// spec/RULES.md. It
// speaks the Python side's encodings exactly, so that move lists can be compared one for
// one with the rules engine's:
//   piece code = kind | colour << 4 (sente 0, gote 1; kinds as tsumeqbf/rules/pieces.py);
//   square     = (rank - 1) * 9 + (9 - file), SFEN reading order;
//   move       = to | from << 7 | promote << 14, a drop's "from" being 96 + kind.
// Only the standard board (9 x 9, zone 3) with hands is served; the Python wrapper
// (tsumeqbf/native/__init__.py) refuses anything else before calling in.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "bounded.h"
#include "py_answer.h"
#include "py_checkpoint.h"
#include "py_fold.h"

namespace {

PyObject* py_moves(PyObject* args, bool checks_only) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn;
    if (!PyArg_ParseTuple(args, "y#y#i", &board, &nb, &hands, &nh, &turn)) return nullptr;
    Position pos;
    if (!check_position(board, nb, hands, nh, turn, pos)) return nullptr;
    std::vector<int> moves;
    if (checks_only) pos.checks(moves); else pos.legal_moves(moves);
    return move_list(moves);
}

PyObject* py_legal_moves(PyObject*, PyObject* args) { return py_moves(args, false); }
PyObject* py_checks(PyObject*, PyObject* args) { return py_moves(args, true); }

// a bounded search set up from (board, hands, turn, n, max_nodes, seconds, tt_limit,
// mobility, group_drops, tick=None, tick_every=4096), n odd and at least 1 (`what` names
// it in the error); false with a Python error set
bool bounded_from(PyObject* args, BoundedSearch& search, int& n, const char* what) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn, mobility, group_drops;
    long long max_nodes, tt_limit, tick_every = 4096;
    double seconds;
    PyObject* tick = Py_None;
    if (!PyArg_ParseTuple(args, "y#y#iiLdLpp|OL", &board, &nb, &hands, &nh, &turn, &n,
                          &max_nodes, &seconds, &tt_limit, &mobility, &group_drops, &tick,
                          &tick_every))
        return false;
    if (n < 1 || n % 2 == 0) {
        PyErr_Format(PyExc_ValueError, "%s must be an odd number >= 1, got %d", what, n);
        return false;
    }
    if (n > NumbersTable::MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "the native core searches at most %d plies, not %d",
                     NumbersTable::MAX_DEPTH, n);
        return false;
    }
    if (tt_limit < 2) {
        PyErr_SetString(PyExc_ValueError, "tt_limit must be at least 2");
        return false;
    }
    if (!check_position(board, nb, hands, nh, turn, search.pos)) return false;
    configure(search, turn, max_nodes, seconds, tt_limit, mobility, group_drops);
    search.tick = tick == Py_None ? nullptr : tick;
    search.tick_every = std::max(1LL, tick_every);
    return true;
}

// mate(board, hands, turn, n, max_nodes, seconds, tt_limit, mobility, group_drops) ->
// (verdict 1/0/None, best move or None, nodes, tt_hits, table size, reason)
PyObject* py_mate(PyObject*, PyObject* args) {
    BoundedSearch search;
    int n;
    if (!bounded_from(args, search, n, "n")) return nullptr;
    int best = -1;
    std::string reason;
    int verdict = guarded([&] { return search.solve(n, best); }, reason);
    if (verdict == -2) return nullptr;  // the signal handler's exception (KeyboardInterrupt)
    PyObject* v = verdict_object(verdict);
    PyObject* bm = best >= 0 ? PyLong_FromLong(best) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("NNLLns", v, bm, (long long)search.nodes, (long long)search.tt_hits,
                         (Py_ssize_t)search.table.count, reason.c_str());
}

// shortest(board, hands, turn, most, ... as mate) -> (found True/False/None, line,
// refuted, nodes, reason): BoundedSearch::shortest; found False: no mate within `most`,
// None: a limit first (`refuted`, the largest k shown to have no mate, -1: none)
PyObject* py_shortest(PyObject*, PyObject* args) {
    BoundedSearch search;
    int most;
    if (!bounded_from(args, search, most, "most")) return nullptr;
    std::vector<int> line;
    int refuted = -1;
    std::string reason;
    int found;
    try {
        found = guarded([&] {
            line = search.shortest(most, refuted);
            return line.empty() ? 0 : 1;
        }, reason);
    } catch (const std::logic_error& e) {
        PyErr_Format(PyExc_RuntimeError, "the native bounded search: %s", e.what());
        return nullptr;
    }
    if (found == -2) return nullptr;  // the signal handler's exception (KeyboardInterrupt)
    PyObject* moves = move_list(line);
    if (!moves) return nullptr;
    return Py_BuildValue("NNiLs", verdict_object(found), moves, refuted,
                         (long long)search.nodes, reason.c_str());
}

PyMethodDef TSUME_METHODS[] = {
    {"add_proofs", (PyCFunction)tsume_add_proofs, METH_VARARGS,
     "add_proofs(path): the proofs of a file save() wrote, before this search's own"},
    {"save", (PyCFunction)tsume_save, METH_VARARGS,
     "save(path, head): the tables to a file, after the bytes head (two lines)"},
    {"load", (PyCFunction)tsume_load, METH_VARARGS,
     "load(path): the tables a save() wrote, into a search that has not run"},
    {"solve", (PyCFunction)tsume_solve, METH_VARARGS,
     "solve(max_nodes, seconds, tick=None, tick_every=4096) -> (verdict, reason)"},
    {"solve_below", (PyCFunction)tsume_solve_below, METH_VARARGS,
     "solve_below(line, max_nodes, seconds, tick=None, tick_every=4096) -> (verdict, reason)"},
    {"proof_seq", (PyCFunction)tsume_proof_seq, METH_O,
     "the smallest sequence number of a proof covering a dominance, or None"},
    {"is_disproven", (PyCFunction)tsume_is_disproven, METH_O,
     "whether a path-independent disproof covers a dominance"},
    {"rank_proven", (PyCFunction)tsume_rank_proven, METH_VARARGS,
     "rank_proven(game, limit, known=None): answer.rank_proven's ranking, or None"},
    {"principal_variation", (PyCFunction)tsume_principal_variation, METH_VARARGS,
     "principal_variation(game, muda=True, rank=None): answer.principal_variation's line"},
    {"line", (PyCFunction)tsume_line, METH_NOARGS, "a mating line read off the proofs"},
    {"current_line", (PyCFunction)tsume_current_line, METH_NOARGS,
     "the moves from the root to the node being searched"},
    {"root_numbers", (PyCFunction)tsume_root_numbers, METH_NOARGS,
     "the root's (pn, dn) now"},
    {"stats", (PyCFunction)tsume_stats, METH_NOARGS,
     "(nodes, tt_hits, unsolved entries, proofs, disproofs, twins)"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject TSUME_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyMethodDef METHODS[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(board, hands, turn) -> every legal move of the side to move"},
    {"checks", py_checks, METH_VARARGS,
     "checks(board, hands, turn) -> the legal moves that check the opponent's king"},
    {"mate", py_mate, METH_VARARGS,
     "mate(board, hands, turn, n, max_nodes, seconds, tt_limit, mobility, group_drops, "
     "tick=None, tick_every=4096) -> "
     "(verdict, best move, nodes, tt_hits, table size, reason): bounded df-pn, Mate(P, n)"},
    {"shortest", py_shortest, METH_VARARGS,
     "shortest(board, hands, turn, most, max_nodes, seconds, tt_limit, mobility, "
     "group_drops, tick=None, tick_every=4096) -> (found, line, refuted, nodes, reason): "
     "the shortest mate within most plies, every ply counted, by bounded df-pn"},
    {"fold_counts", py_fold_counts, METH_VARARGS,
     "fold_counts(sfens) -> per SFEN (legal replies, replies after which no check mates)"},
    {"fold_checks", py_fold_checks, METH_VARARGS,
     "fold_checks(sfens) -> per SFEN, per legal check, fold_counts of the position after it"},
    {"fold_wins", py_fold_wins, METH_VARARGS,
     "fold_wins(sfens) -> per SFEN, the legal checks after which fold_counts lose no reply"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_core",
                      "tsumeqbf's native core: standard 9x9 move generation and df-pn", -1,
                      METHODS};

}  // namespace

PyMODINIT_FUNC PyInit__core(void) {
    define_type<GameObject>(GAME_TYPE, "tsumeqbf.native._core.Game",
                            "Game(board, hands, turn): a position to walk, the side to move attacking",
                            (initproc)game_init, (destructor)game_dealloc, GAME_METHODS);
    define_type<TsumeObject>(TSUME_TYPE, "tsumeqbf.native._core.Tsume",
                             "Tsume(board, hands, turn, tt_limit, mobility, group_drops, dag=True, "
                             "inherit=True): unbounded df-pn",
                             (initproc)tsume_init, (destructor)tsume_dealloc, TSUME_METHODS);
    if (PyType_Ready(&GAME_TYPE) < 0 || PyType_Ready(&TSUME_TYPE) < 0 || !ranking_type_ready())
        return nullptr;
    PyObject* module = PyModule_Create(&MODULE);
    if (!module) return nullptr;
    if (PyModule_AddIntConstant(module, "VERSION", CORE_VERSION) < 0) {
        Py_DECREF(module);
        return nullptr;
    }
    Py_INCREF(&GAME_TYPE);
    Py_INCREF(&TSUME_TYPE);
    Py_INCREF(&RANKING_TYPE);
    if (PyModule_AddObject(module, "Game", (PyObject*)&GAME_TYPE) < 0 ||
        PyModule_AddObject(module, "Tsume", (PyObject*)&TSUME_TYPE) < 0 ||
        PyModule_AddObject(module, "Ranking", (PyObject*)&RANKING_TYPE) < 0) {
        Py_DECREF(module);
        return nullptr;
    }
    return module;
}
