// The Python type Game: a position the answer printer and the bounded df-pn walk.

#pragma once

#include "py_common.h"
#include "tsume_table.h"

namespace {

// whether `m` can be played on `p` without corrupting it: its squares on the board, its
// piece the mover's, its drop from the hand (legality is the caller's: moves come from
// the lists)
bool well_formed(const Position& p, long m) {
    if (m < 0 || m >= (1 << 15)) return false;
    int to = move_to((int)m), frm = move_from((int)m);
    if (to >= N || (p.board[to] && color_of(p.board[to]) == p.turn)) return false;
    if (frm >= DROP_BASE) {
        int kind = frm - DROP_BASE;
        return kind >= PAWN && kind <= ROOK && p.hands[p.turn][kind] > 0 && !p.board[to] &&
               !is_promotion((int)m);
    }
    if (frm >= N) return false;
    int code = p.board[frm];
    return code && color_of(code) == p.turn && (!is_promotion((int)m) || T->promote_code[code]);
}

PyObject* dominance_object(const Dom& d) {
    const uint8_t *a = d.att.n, *f = d.dfn.n;
    return Py_BuildValue("K(iiiiiii)(iiiiiii)", (unsigned long long)d.board, a[0], a[1], a[2],
                         a[3], a[4], a[5], a[6], f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
}

bool parse_dominance(PyObject* obj, Dom& d) {
    unsigned long long board;
    unsigned char* a = d.att.n;
    unsigned char* f = d.dfn.n;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a dominance is (board key, attacker's hand, defender's hand)");
        return false;
    }
    if (!PyArg_ParseTuple(obj, "K(bbbbbbb)(bbbbbbb)", &board, a, a + 1, a + 2, a + 3, a + 4,
                          a + 5, a + 6, f, f + 1, f + 2, f + 3, f + 4, f + 5, f + 6))
        return false;
    d.board = board;
    return true;
}

// check_position for the unbounded search, whose hands are bytes below MANY
bool load_position(const char* board, Py_ssize_t nb, const char* hands, Py_ssize_t nh,
                   int turn, Position& pos) {
    if (!check_position(board, nb, hands, nh, turn, pos)) return false;
    for (int c = 0; c < 2; ++c)
        for (int k = 1; k < 8; ++k)
            if (pos.hands[c][k] > MANY - 1) {
                PyErr_SetString(PyExc_ValueError, "the native core holds at most 98 of a kind in hand");
                return false;
            }
    return true;
}

// whether reply m (of the defender, to move at p) puts a piece between the king and a
// distant checker
bool interposes(const Position& p, int attacker, int m) {
    int k = p.kings[attacker ^ 1], to = move_to(m);
    if (k < 0 || to >= N || (!is_drop(m) && move_from(m) == k) || p.board[to]) return false;
    int checkers[16];
    int n = p.attackers(k, attacker, checkers);
    for (int i = 0; i < n; ++i)
        for (int x : T->between[k][checkers[i]])
            if (x == to) return true;
    return false;
}

// whether square sq touches the defender's king
bool touches_king(const Position& p, int attacker, long sq) {
    int k = p.kings[attacker ^ 1];
    if (k < 0 || sq < 0 || sq >= N) return false;
    int dx = std::abs((int)sq % W - k % W), dy = std::abs((int)sq / W - k / W);
    return std::max(dx, dy) == 1;
}

// Game(board, hands, turn): the position with the side to move the attacker; the methods
// of tsumeqbf.dfpn.game.TsumeGame that the answer and bounded df-pn ask
struct GameObject {
    PyObject_HEAD
    Position* pos;
    int attacker;
};

int game_init(GameObject* self, PyObject* args, PyObject*) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn;
    if (!PyArg_ParseTuple(args, "y#y#i", &board, &nb, &hands, &nh, &turn)) return -1;
    auto* pos = new Position();
    if (!load_position(board, nb, hands, nh, turn, *pos)) { delete pos; return -1; }
    delete self->pos;
    self->pos = pos;
    self->attacker = turn;
    return 0;
}

void game_dealloc(GameObject* self) {
    delete self->pos;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

PyObject* game_key(GameObject* self, PyObject*) {
    return PyLong_FromUnsignedLongLong(self->pos->key());
}

PyObject* game_is_or(GameObject* self, PyObject*) {
    return PyBool_FromLong(self->pos->turn == self->attacker);
}

PyObject* game_moves(GameObject* self, PyObject*) {
    std::vector<int> moves;
    Position& p = *self->pos;
    if (p.turn == self->attacker) p.checks(moves); else p.legal_moves(moves);
    return move_list(moves);
}

PyObject* game_play(GameObject* self, PyObject* arg) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return nullptr;
    if (!well_formed(*self->pos, m)) {
        PyErr_Format(PyExc_ValueError, "move %ld cannot be played here", m);
        return nullptr;
    }
    self->pos->push((int)m);
    Py_RETURN_NONE;
}

PyObject* game_undo(GameObject* self, PyObject*) {
    if (self->pos->stack.empty()) {
        PyErr_SetString(PyExc_IndexError, "no move to undo");
        return nullptr;
    }
    self->pos->pop();
    Py_RETURN_NONE;
}

PyObject* game_dominance(GameObject* self, PyObject*) {
    return dominance_object(dominance_of(*self->pos, self->attacker));
}

// reply_count(group_drops=True, group_interpositions=False): ShogiGame.reply_count at a
// defender's node (the side to move's legal moves, grouped)
PyObject* game_reply_count(GameObject* self, PyObject* args) {
    int group_drops = 1, group_interpositions = 0;
    if (!PyArg_ParseTuple(args, "|pp", &group_drops, &group_interpositions)) return nullptr;
    Position& p = *self->pos;
    return PyLong_FromLong(group_interpositions ? p.interposition_grouped_count()
                                                : p.grouped_reply_count(group_drops));
}

// is_interposition(m): a reply that puts a piece between the king and a distant checker
PyObject* game_is_interposition(GameObject* self, PyObject* arg) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return nullptr;
    return PyBool_FromLong(interposes(*self->pos, self->attacker, (int)m));
}

// next_to_king(sq): whether the square touches the defender's king
PyObject* game_next_to_king(GameObject* self, PyObject* arg) {
    long sq = PyLong_AsLong(arg);
    if (sq == -1 && PyErr_Occurred()) return nullptr;
    return PyBool_FromLong(touches_king(*self->pos, self->attacker, sq));
}

PyMethodDef GAME_METHODS[] = {
    {"key", (PyCFunction)game_key, METH_NOARGS, "the position's key (side to move included)"},
    {"is_or", (PyCFunction)game_is_or, METH_NOARGS, "whether the attacker is to move"},
    {"moves", (PyCFunction)game_moves, METH_NOARGS, "the attacker's checks, or every reply"},
    {"play", (PyCFunction)game_play, METH_O, "play a move"},
    {"undo", (PyCFunction)game_undo, METH_NOARGS, "take the last move back"},
    {"dominance", (PyCFunction)game_dominance, METH_NOARGS,
     "(board key, attacker's hand, defender's hand), the tables' keys"},
    {"reply_count", (PyCFunction)game_reply_count, METH_VARARGS,
     "reply_count(group_drops=True, group_interpositions=False)"},
    {"is_interposition", (PyCFunction)game_is_interposition, METH_O,
     "whether a reply blocks a distant check"},
    {"next_to_king", (PyCFunction)game_next_to_king, METH_O,
     "whether a square touches the defender's king"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject GAME_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

}  // namespace
