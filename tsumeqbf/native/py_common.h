// What the Python doors share: the interface's version, a position checked as it comes in,
// move lists out, the searches' options and their verdicts.

#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "position.h"

namespace {

// the interface's version: tsumeqbf/native/__init__.py refuses a core built from older
// source (its CORE_VERSION), which would lack what the Python side calls; checkpoints
// name it too
constexpr uint32_t CORE_VERSION = 12;

bool check_position(const char* board, Py_ssize_t nb, const char* hands, Py_ssize_t nh,
                    int turn, Position& pos) {
    if (nb != N || nh != 16 || (turn != 0 && turn != 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "the native core takes an 81-byte board, 16-byte hands and a side 0 or 1");
        return false;
    }
    for (int s = 0; s < N; ++s) {
        int code = (uint8_t)board[s];
        if (code && (kind_of(code) < 1 || kind_of(code) > 14 || code > 31)) {
            PyErr_Format(PyExc_ValueError, "bad piece code %d on square %d", code, s);
            return false;
        }
    }
    int kings[2] = {0, 0};
    for (int s = 0; s < N; ++s)
        if (board[s] && kind_of((uint8_t)board[s]) == KING) ++kings[color_of((uint8_t)board[s])];
    if (kings[0] > 1 || kings[1] > 1) {
        PyErr_SetString(PyExc_ValueError, "more than one king of a colour");
        return false;
    }
    pos.init((const uint8_t*)board, (const uint8_t*)hands, turn);
    return true;
}

// a Python type of the module's, its slots set as every one of them has them (the caller
// adds any others, then readies it)
template <class Object>
void define_type(PyTypeObject& type, const char* name, const char* doc, initproc init,
                 destructor dealloc, PyMethodDef* methods) {
    type.tp_name = name;
    type.tp_basicsize = sizeof(Object);
    type.tp_flags = Py_TPFLAGS_DEFAULT;
    type.tp_doc = doc;
    type.tp_new = PyType_GenericNew;
    type.tp_init = init;
    type.tp_dealloc = dealloc;
    type.tp_methods = methods;
}

PyObject* move_list(const std::vector<int>& moves) {
    PyObject* list = PyList_New((Py_ssize_t)moves.size());
    if (!list) return nullptr;
    for (size_t i = 0; i < moves.size(); ++i)
        PyList_SET_ITEM(list, (Py_ssize_t)i, PyLong_FromLong(moves[i]));
    return list;
}

// the limits and options both searches take from Python
template <class S>
void configure(S& search, int turn, long long max_nodes, double seconds, long long tt_limit,
               int mobility, int group_drops) {
    search.attacker = turn;
    search.max_nodes = max_nodes;
    search.seconds = seconds;
    search.table.limit = (size_t)tt_limit;
    search.mobility = mobility;
    search.group_drops = group_drops;
}

// body()'s verdict (1 mate, 0 no mate); -1 at a limit, with `reason`; -2 on a signal, the
// Python exception set by PyErr_CheckSignals
template <class F>
int guarded(F&& body, std::string& reason) {
    try {
        return body();
    } catch (const Aborted& a) {
        if (a.signal) return -2;
        reason = a.reason;
    } catch (const std::bad_alloc&) {
        reason = "out of memory";
    }
    return -1;
}

PyObject* verdict_object(int verdict) {
    PyObject* v = verdict < 0 ? Py_None : verdict ? Py_True : Py_False;
    Py_INCREF(v);
    return v;
}

}  // namespace
