// The Python type Ranking: a ranking of the answer's walks (a position's key -> its
// distance to mate, every ply counted) as a mapping over an open-addressed table. The
// core's walks read it without a Python object per lookup: a dict of millions of entries
// costs three cache misses a lookup (its index, its entry, the key's int), and the walks
// that rank what each round of the shortening adds made those lookups a quarter of
// zukou-057's answer. Keys are what Game.key gives (0 <= key < 2**64), distances ints
// >= 0; entries are added or changed, never taken out (a ranking only grows).

#pragma once

#include "py_common.h"

namespace {

// the table: linear probing, grown at half load
struct Distances {
    struct Slot { uint64_t key; int64_t d; };  // d -1: free
    std::vector<Slot> slots = std::vector<Slot>(16, Slot{0, -1});
    size_t n = 0;

    size_t mask() const { return slots.size() - 1; }
    // the distance of key, -1 if none
    int64_t find(uint64_t key) const { return slots[slot(key)].d; }
    void prefetch(uint64_t key) const { __builtin_prefetch(&slots[mix(key) & mask()]); }
    void set(uint64_t key, int64_t d) {
        size_t i = slot(key);
        if (slots[i].d < 0 && 2 * (n + 1) > slots.size()) {  // (a new key: grown first)
            grow();
            i = slot(key);
        }
        n += slots[i].d < 0;
        slots[i] = Slot{key, d};
    }
    // key's slot, or the free one where it would go
    size_t slot(uint64_t key) const {
        size_t i = mix(key) & mask();
        while (slots[i].d >= 0 && slots[i].key != key) i = (i + 1) & mask();
        return i;
    }
    void grow() {
        std::vector<Slot> old(2 * slots.size(), Slot{0, -1});
        old.swap(slots);
        for (const Slot& s : old) {
            if (s.d < 0) continue;
            size_t i = mix(s.key) & mask();
            while (slots[i].d >= 0) i = (i + 1) & mask();
            slots[i] = s;
        }
    }
};

struct RankingObject {
    PyObject_HEAD
    Distances* table;
};

PyTypeObject RANKING_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

bool is_ranking(PyObject* o) { return Py_TYPE(o) == &RANKING_TYPE; }
const Distances& distances_of(PyObject* o) { return *((RankingObject*)o)->table; }

// o None, a Ranking or a dict (a ranking the walks read), else a TypeError
bool ranking_or_none(PyObject* o, const char* what) {
    if (o == Py_None || is_ranking(o) || PyDict_Check(o)) return true;
    PyErr_Format(PyExc_TypeError, "%s must be a Ranking, a dict or None", what);
    return false;
}

// a key as the table holds it: 1, 0 when o is no key a ranking can hold (not an int, or
// out of range), -1 on another Python error
int key_of(PyObject* o, uint64_t& key) {
    if (!PyLong_Check(o)) return 0;
    key = PyLong_AsUnsignedLongLong(o);
    if (key == (uint64_t)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return 0;
    }
    return 1;
}

// ranking[k] = v, checked; false with the Python error set
bool ranking_set(Distances& t, PyObject* k, PyObject* v) {
    uint64_t key;
    int ok = key_of(k, key);
    if (ok <= 0) {
        if (!ok) PyErr_SetString(PyExc_TypeError, "a ranking's key is an int, 0 <= key < 2**64");
        return false;
    }
    long long d = PyLong_Check(v) ? PyLong_AsLongLong(v) : -1;
    if (d == -1 && PyErr_Occurred()) return false;
    if (d < 0) {
        PyErr_SetString(PyExc_ValueError, "a rank is a distance, an int at least 0");
        return false;
    }
    t.set(key, d);
    return true;
}

// every entry of `from` (a Ranking, a dict, or any mapping with keys()) into t
bool ranking_merge(Distances& t, PyObject* from) {
    if (is_ranking(from)) {
        if (&distances_of(from) == &t) return true;
        for (const Distances::Slot& s : distances_of(from).slots)
            if (s.d >= 0) t.set(s.key, s.d);
        return true;
    }
    if (PyDict_Check(from)) {
        Py_ssize_t at = 0;
        PyObject *k, *v;
        while (PyDict_Next(from, &at, &k, &v))
            if (!ranking_set(t, k, v)) return false;
        return true;
    }
    if (!PyObject_HasAttrString(from, "keys")) {
        PyErr_SetString(PyExc_TypeError, "a ranking takes the entries of a Ranking or a mapping");
        return false;
    }
    PyObject* keys = PyMapping_Keys(from);
    if (!keys) return false;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(keys); ++i) {
        PyObject* k = PyList_GET_ITEM(keys, i);
        PyObject* v = PyObject_GetItem(from, k);
        ok = v && ranking_set(t, k, v);
        Py_XDECREF(v);
    }
    Py_DECREF(keys);
    return ok;
}

// a new Ranking with the entries of `from` (none: empty), or null with the Python error set
PyObject* new_ranking(const Distances* from = nullptr) {
    RankingObject* out = PyObject_New(RankingObject, &RANKING_TYPE);
    if (!out) return nullptr;
    try {
        out->table = from ? new Distances(*from) : new Distances;
    } catch (const std::bad_alloc&) {
        out->table = nullptr;
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return (PyObject*)out;
}

// (a Ranking has its table from the start, whether or not __init__ runs)
PyObject* ranking_new(PyTypeObject*, PyObject*, PyObject*) { return new_ranking(); }

int ranking_init(RankingObject* self, PyObject* args, PyObject* kwds) {
    PyObject* from = nullptr;
    static const char* names[] = {"entries", nullptr};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", (char**)names, &from)) return -1;
    try {
        // (another Ranking's table copied as it is, not entry by entry)
        *self->table = from && is_ranking(from) ? distances_of(from) : Distances();
        return from && from != Py_None && !is_ranking(from) && !ranking_merge(*self->table, from)
                   ? -1 : 0;
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
        return -1;
    }
}

void ranking_dealloc(RankingObject* self) {
    delete self->table;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

Py_ssize_t ranking_len(RankingObject* self) { return (Py_ssize_t)self->table->n; }

// the distance of key object k: >= 0, -1 none, -2 a Python error
int64_t ranking_lookup(RankingObject* self, PyObject* k) {
    uint64_t key;
    int ok = key_of(k, key);
    if (ok < 0) return -2;
    return ok ? self->table->find(key) : -1;
}

PyObject* ranking_getitem(RankingObject* self, PyObject* k) {
    int64_t d = ranking_lookup(self, k);
    if (d == -2) return nullptr;
    if (d < 0) {
        PyErr_SetObject(PyExc_KeyError, k);
        return nullptr;
    }
    return PyLong_FromLongLong(d);
}

int ranking_setitem(RankingObject* self, PyObject* k, PyObject* v) {
    if (!v) {
        PyErr_SetString(PyExc_TypeError, "a ranking only grows: its entries are not deleted");
        return -1;
    }
    try {
        return ranking_set(*self->table, k, v) ? 0 : -1;
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
        return -1;
    }
}

int ranking_contains(RankingObject* self, PyObject* k) {
    int64_t d = ranking_lookup(self, k);
    return d == -2 ? -1 : d >= 0;
}

// (called as dict.get is, without a tuple of its arguments: the answer's Python walks ask
// it once per child)
PyObject* ranking_get(RankingObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "get(key, default=None) takes one or two arguments");
        return nullptr;
    }
    PyObject *k = args[0], *fallback = nargs == 2 ? args[1] : Py_None;
    int64_t d = ranking_lookup(self, k);
    if (d == -2) return nullptr;
    if (d >= 0) return PyLong_FromLongLong(d);
    Py_INCREF(fallback);
    return fallback;
}

PyObject* ranking_update(RankingObject* self, PyObject* from) {
    try {
        if (!ranking_merge(*self->table, from)) return nullptr;
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

PyObject* ranking_copy(RankingObject* self, PyObject*) { return new_ranking(self->table); }

// the entries as a list: of keys, or of (key, distance) pairs
PyObject* ranking_list(RankingObject* self, bool pairs) {
    const Distances& t = *self->table;
    PyObject* out = PyList_New((Py_ssize_t)t.n);
    if (!out) return nullptr;
    Py_ssize_t at = 0;
    for (const Distances::Slot& s : t.slots) {
        if (s.d < 0) continue;
        PyObject* item = pairs ? Py_BuildValue("KL", (unsigned long long)s.key, (long long)s.d)
                               : PyLong_FromUnsignedLongLong(s.key);
        if (!item) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, at++, item);
    }
    return out;
}

PyObject* ranking_keys(RankingObject* self, PyObject*) { return ranking_list(self, false); }
PyObject* ranking_items(RankingObject* self, PyObject*) { return ranking_list(self, true); }

PyObject* ranking_iter(RankingObject* self) {
    PyObject* keys = ranking_list(self, false);
    if (!keys) return nullptr;
    PyObject* it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

// == another Ranking or a dict with the same entries
PyObject* ranking_richcompare(RankingObject* self, PyObject* other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !(is_ranking(other) || PyDict_Check(other)))
        Py_RETURN_NOTIMPLEMENTED;
    const Distances& t = *self->table;
    bool same = (size_t)PyObject_Length(other) == t.n;
    if (same && is_ranking(other)) {
        for (const Distances::Slot& s : t.slots)
            if (s.d >= 0 && distances_of(other).find(s.key) != s.d) { same = false; break; }
    } else if (same) {
        Py_ssize_t at = 0;
        PyObject *k, *v;
        while (same && PyDict_Next(other, &at, &k, &v)) {
            int64_t d = ranking_lookup(self, k);
            if (d == -2) return nullptr;
            long long want = PyLong_Check(v) ? PyLong_AsLongLong(v) : -1;
            if (want == -1 && PyErr_Occurred()) PyErr_Clear();
            same = d >= 0 && d == want;
        }
    }
    return PyBool_FromLong(same == (op == Py_EQ));
}

PyMappingMethods RANKING_MAPPING = {(lenfunc)ranking_len, (binaryfunc)ranking_getitem,
                                    (objobjargproc)ranking_setitem};
PySequenceMethods RANKING_SEQUENCE = {};

PyMethodDef RANKING_METHODS[] = {
    {"get", (PyCFunction)(void (*)(void))ranking_get, METH_FASTCALL,
     "get(key, default=None): the key's distance, or default"},
    {"update", (PyCFunction)ranking_update, METH_O,
     "update(entries): every entry of a Ranking, a dict or a mapping added or changed"},
    {"copy", (PyCFunction)ranking_copy, METH_NOARGS, "a Ranking with the same entries"},
    {"keys", (PyCFunction)ranking_keys, METH_NOARGS, "the keys, a list"},
    {"items", (PyCFunction)ranking_items, METH_NOARGS, "the (key, distance) pairs, a list"},
    {nullptr, nullptr, 0, nullptr}};

// the type made ready (from PyInit__core)
bool ranking_type_ready() {
    RANKING_SEQUENCE.sq_contains = (objobjproc)ranking_contains;
    define_type<RankingObject>(
        RANKING_TYPE, "tsumeqbf.native._core.Ranking",
        "Ranking(entries=None): position keys -> distances to mate, a mapping",
        (initproc)ranking_init, (destructor)ranking_dealloc, RANKING_METHODS);
    RANKING_TYPE.tp_new = ranking_new;
    RANKING_TYPE.tp_as_mapping = &RANKING_MAPPING;
    RANKING_TYPE.tp_as_sequence = &RANKING_SEQUENCE;
    RANKING_TYPE.tp_iter = (getiterfunc)ranking_iter;
    RANKING_TYPE.tp_richcompare = (richcmpfunc)ranking_richcompare;
    RANKING_TYPE.tp_hash = PyObject_HashNotImplemented;
    return PyType_Ready(&RANKING_TYPE) == 0;
}

}  // namespace
