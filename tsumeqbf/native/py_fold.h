// The dag-fold listing's counts (tsumeqbf/encoder/dag.py): for each position after ply n - 2
// (an SFEN as cshogi writes it), the defender's legal replies and how many of them leave the
// attacker no check that mates: the counts the fold's clauses need, in place of the Python
// lister's per-reply test (its bottleneck).

#pragma once

#include "py_common.h"

namespace {

// the kind of an SFEN piece letter (either case), 0 for none
int sfen_kind(char ch) {
    switch (ch | 0x20) {
        case 'p': return PAWN;
        case 'l': return LANCE;
        case 'n': return KNIGHT;
        case 's': return SILVER;
        case 'g': return GOLD;
        case 'b': return BISHOP;
        case 'r': return ROOK;
        case 'k': return KING;
        default: return 0;
    }
}

// the SFEN's board from its start; the text after it, nullptr when malformed
const char* parse_sfen_board(const char* s, uint8_t* board) {
    std::memset(board, 0, N);
    int sq = 0, rank_end = W;
    for (; *s && *s != ' '; ++s) {
        if (*s == '/') {
            if (sq != rank_end) return nullptr;
            rank_end += W;
            continue;
        }
        if ('1' <= *s && *s <= '9') {
            sq += *s - '0';
        } else {
            bool promoted = *s == '+';
            if (promoted) ++s;
            int kind = sfen_kind(*s);
            if (!kind || sq >= rank_end || (promoted && (kind == GOLD || kind == KING)))
                return nullptr;
            if (promoted) kind = kind == BISHOP ? HORSE : kind == ROOK ? DRAGON : kind + 8;
            board[sq++] = (uint8_t)code_of(kind, *s >= 'a');
        }
        if (sq > rank_end) return nullptr;
    }
    return sq == N && rank_end == N ? s : nullptr;
}

// the SFEN's hands ("-" or counts and letters, as "R2b15p") into 16 bytes as check_position
// takes them; false when malformed
bool parse_sfen_hands(const char* s, uint8_t* hands) {
    std::memset(hands, 0, 16);
    if (*s == '-') return s[1] == 0 || s[1] == ' ';
    for (; *s && *s != ' '; ++s) {
        int count = 0;
        for (; '0' <= *s && *s <= '9' && count < 256; ++s) count = count * 10 + (*s - '0');
        int kind = sfen_kind(*s), slot = (*s >= 'a') * 8 + kind;
        count = count ? count : 1;
        if (!kind || kind == KING || hands[slot] + count > 255) return false;
        hands[slot] = (uint8_t)(hands[slot] + count);
    }
    return true;
}

// board, hands and side to move of an SFEN (its move number, if any, unread)
bool parse_sfen(const char* s, uint8_t* board, uint8_t* hands, int& turn) {
    s = parse_sfen_board(s, board);
    if (!s || *s != ' ' || (s[1] != 'b' && s[1] != 'w') || s[2] != ' ') return false;
    turn = s[1] == 'w';
    return parse_sfen_hands(s + 3, hands);
}

// whether the side to move has a legal check after which the other side has no legal move
bool mates_in_one(Position& p) {
    std::vector<int> checks;
    p.checks(checks);
    for (int m : checks) {
        p.push(m);
        bool mated = !p.has_legal_move();
        p.pop();
        if (mated) return true;
    }
    return false;
}

// (the legal replies of the side to move, those after which the other side does not
// mate in one)
std::pair<int, int> reply_mate_counts(Position& p) {
    std::vector<int> replies;
    p.legal_moves(replies);
    int lost = 0;
    for (int m : replies) {
        p.push(m);
        lost += !mates_in_one(p);
        p.pop();
    }
    return {(int)replies.size(), lost};
}

// whether every legal reply of the side to move leaves the other side a check that mates
// in one (true with no reply: mated): the first reply without one ends the test
bool every_reply_mated(Position& p) {
    std::vector<int> replies;
    p.legal_moves(replies);
    for (int m : replies) {
        p.push(m);
        bool mated = mates_in_one(p);
        p.pop();
        if (!mated) return false;
    }
    return true;
}

// the position of an SFEN (a str) into `pos`; false with the Python exception set
bool load_sfen(PyObject* item, Position& pos) {
    uint8_t board[N], hands[16];
    int turn = 0;
    const char* text = PyUnicode_AsUTF8(item);
    if (!text) return false;
    if (!parse_sfen(text, board, hands, turn)) {
        PyErr_Format(PyExc_ValueError, "not an SFEN the native core reads: %s", text);
        return false;
    }
    return check_position((const char*)board, N, (const char*)hands, 16, turn, pos);
}

PyObject* counts_object(std::pair<int, int> c) { return Py_BuildValue("ii", c.first, c.second); }

// a list of each(pos) per SFEN of the list `sfens`; NULL with the exception on a bad one
template <class Each>
PyObject* per_sfen(PyObject* args, Each&& each) {
    PyObject* sfens;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &sfens)) return nullptr;
    Py_ssize_t count = PyList_GET_SIZE(sfens);
    PyObject* out = PyList_New(count);
    if (!out) return nullptr;
    Position pos;
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* item = load_sfen(PyList_GET_ITEM(sfens, i), pos) ? each(pos) : nullptr;
        if (!item) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

// fold_counts(sfens) -> [(legal replies, replies after which no check mates)] per SFEN
PyObject* py_fold_counts(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) { return counts_object(reply_mate_counts(pos)); });
}

// fold_checks(sfens) -> per SFEN, for each legal check of the side to move (the core's
// order) the fold_counts of the position after it: ply n - 2 and n - 1 in one call, the
// positions after ply n - 2 not merged (on mate11-5 at 11 the checks are 14 % more)
PyObject* py_fold_checks(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) -> PyObject* {
        std::vector<int> checks;
        pos.checks(checks);
        PyObject* list = PyList_New((Py_ssize_t)checks.size());
        for (size_t i = 0; list && i < checks.size(); ++i) {
            pos.push(checks[i]);
            PyList_SET_ITEM(list, (Py_ssize_t)i, counts_object(reply_mate_counts(pos)));
            pos.pop();
        }
        return list;
    });
}

// fold_wins(sfens) -> per SFEN the number of legal checks of the side to move after which
// every reply is answered by a check that mates (those whose fold_counts lose none): plies
// n - 2 and n - 1 of dag-fold-reduced, each check's test ended by its first lost reply
PyObject* py_fold_wins(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) -> PyObject* {
        std::vector<int> checks;
        pos.checks(checks);
        long wins = 0;
        for (int m : checks) {
            pos.push(m);
            wins += every_reply_mated(pos);
            pos.pop();
        }
        return PyLong_FromLong(wins);
    });
}

}  // namespace
