// Tsume's tables to a file and back (tsumeqbf/dfpn/checkpoint.py writes the head), and the
// proofs of another search's file taken in as seeds.

#pragma once

#include "py_tsume.h"
#include "tsume_file.h"

namespace {

// save(path, head): the tables to `path` (made or overwritten) after the bytes `head`, two
// lines the Python side writes and reads (tsumeqbf/dfpn/checkpoint.py); allowed from a
// tick, as the tables are whole between nodes
PyObject* tsume_save(TsumeObject* self, PyObject* args) {
    PyObject* path;
    const char* head;
    Py_ssize_t nhead;
    if (!PyArg_ParseTuple(args, "O&y#", PyUnicode_FSConverter, &path, &head, &nhead)) return nullptr;
    const char* name = PyBytes_AS_STRING(path);
    FILE* f = std::fopen(name, "wb");
    if (!f) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, name);
        Py_DECREF(path);
        return nullptr;
    }
    std::vector<char> buffer(1 << 20);
    std::setvbuf(f, buffer.data(), _IOFBF, buffer.size());
    TableOut out{f};
    out.ok = std::fwrite(head, 1, (size_t)nhead, f) == (size_t)nhead;
    write_tables(*self->search, out, CORE_VERSION);
    bool ok = std::fclose(f) == 0 && out.ok;
    if (!ok) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, name);
        Py_DECREF(path);
        return nullptr;
    }
    Py_DECREF(path);
    Py_RETURN_NONE;
}

// the file save() wrote to `path` (a reference it takes), read past its two head lines;
// NULL with OSError when it cannot be opened
FILE* open_tables(PyObject* path) {
    const char* name = PyBytes_AS_STRING(path);
    FILE* f = std::fopen(name, "rb");
    if (!f) PyErr_SetFromErrnoWithFilename(PyExc_OSError, name);
    Py_DECREF(path);
    if (!f) return nullptr;
    for (int lines = 0, c; lines < 2 && (c = std::fgetc(f)) != EOF;) lines += c == '\n';
    return f;
}

// load(path): the tables save() wrote to `path` (after its two head lines), into a search
// that has not run; ValueError saying why a file cannot be read, the search unchanged
PyObject* tsume_load(TsumeObject* self, PyObject* args) {
    PyObject* path;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return nullptr;
    UnboundedSearch& s = *self->search;
    if (self->busy || s.nodes || s.n_proofs || s.n_disproofs || s.table.used) {
        Py_DECREF(path);
        PyErr_SetString(PyExc_RuntimeError, "tables are loaded into a search that has not run");
        return nullptr;
    }
    FILE* f = open_tables(path);
    if (!f) return nullptr;
    auto* fresh = new UnboundedSearch();  // the same question and options, empty tables
    fresh->pos = s.pos;
    fresh->attacker = s.attacker;
    fresh->table.limit = s.table.limit;
    fresh->twin_limit = s.twin_limit;
    fresh->mobility = s.mobility;
    fresh->group_drops = s.group_drops;
    fresh->dag = s.dag;
    fresh->inherit = s.inherit;
    TableIn in{f};
    std::string why;
    try {
        why = read_tables(*fresh, in, CORE_VERSION);
    } catch (const std::bad_alloc&) {
        why = "out of memory";
    }
    std::fclose(f);
    if (!why.empty()) {
        delete fresh;
        PyErr_SetString(PyExc_ValueError, why.c_str());
        return nullptr;
    }
    delete self->search;
    self->search = fresh;
    Py_RETURN_NONE;
}

// add_proofs(path): the proofs of the file save() wrote to `path`, of this problem or
// another with the same attacker (seeds), before this search's own; how many were new.
// ValueError saying why a file cannot be read, no proof taken
PyObject* tsume_add_proofs(TsumeObject* self, PyObject* args) {
    PyObject* path;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return nullptr;
    if (!idle(self)) {
        Py_DECREF(path);
        return nullptr;
    }
    FILE* f = open_tables(path);
    if (!f) return nullptr;
    TableIn in{f};
    std::string why;
    int64_t added = 0;
    try {
        why = read_proofs(*self->search, in, CORE_VERSION, added);
    } catch (const std::bad_alloc&) {
        why = "out of memory";
    }
    std::fclose(f);
    if (!why.empty()) {
        PyErr_SetString(PyExc_ValueError, why.c_str());
        return nullptr;
    }
    return PyLong_FromLongLong(added);
}

}  // namespace
