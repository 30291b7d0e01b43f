// What both df-pn searches share: the numbers' infinity and sums, the work that halves a
// full table, and the position with the node and time limits, the tick and Ctrl-C.

#pragma once

#include <Python.h>  // (the tick and Ctrl-C; _core.cpp includes it before anything)
#include "position.h"

namespace {

constexpr int64_t INF = 1000000000;  // a solved node's number; a threshold of INF: no limit

// a search stopped: at a limit (`reason`), or by a signal's exception (Python's, pending);
// `limit` says which of the search's own limits it was, if one
enum class Limit { OTHER, NODES, TIME };
struct Aborted { std::string reason; bool signal; Limit limit = Limit::OTHER; };

inline int64_t capped_sum(int64_t total, bool infinite) {
    return infinite ? INF : std::min(INF - 1, total);
}

inline int64_t share(int64_t th, int64_t total, int64_t child) {
    return th >= INF ? INF : std::min(INF - 1, th - total + child);
}

// the work that splits `works` (reordered) in halves: the upper half is everything above
// it and `keep_at_cut` of the entries at it
inline int64_t half_cut(std::vector<int64_t>& works, size_t& keep_at_cut) {
    size_t drop = works.size() / 2;
    std::nth_element(works.begin(), works.begin() + drop, works.end());
    int64_t cut = works[drop];
    size_t below = 0;
    for (int64_t w : works) below += w < cut;
    size_t at_cut = 0;
    for (int64_t w : works) at_cut += w == cut;
    keep_at_cut = at_cut - std::min(at_cut, drop - std::min(drop, below));
    return cut;
}

// what both searches share: the position, the node and time limits, Ctrl-C
struct Search {
    Position pos;
    int attacker = 0;
    int64_t max_nodes = -1;  // -1: no limit
    double seconds = -1;     // -1: no limit
    double epsilon = 0.25;
    bool mobility = true, group_drops = true;
    int64_t nodes = 0, tt_hits = 0;
    std::chrono::steady_clock::time_point deadline;

    // the next node count at which a limit, the clock, signals or the tick may be due
    // (every search starts the clock, after its limits and tick are set): the nodes
    // between pass one comparison
    int64_t check_at = 0;

    void start_clock() {
        deadline = std::chrono::steady_clock::now() +
                   std::chrono::microseconds((int64_t)(std::max(seconds, 0.0) * 1e6));
        check_at = 0;
    }

    // called every `tick_every` nodes (Python: progress, memory limits); a string it
    // returns ends the search at a limit (the reason), an exception it raises as a signal
    PyObject* tick = nullptr;
    int64_t tick_every = 4096;

    void count_node() {
        if (++nodes >= check_at) checks_due();
    }
    // (what count_node() tests at the nodes it may be due)
    void checks_due() {
        check_at = next_check();
        if (max_nodes >= 0 && nodes > max_nodes)
            throw Aborted{"node limit " + std::to_string(max_nodes) + " reached", false,
                          Limit::NODES};
        if ((nodes & 255) == 0 && seconds >= 0 && std::chrono::steady_clock::now() > deadline)
            throw Aborted{"time limit reached", false, Limit::TIME};
        if ((nodes & 4095) == 0 && PyErr_CheckSignals() < 0) throw Aborted{"", true};
        if (tick && nodes % tick_every == 0) {
            PyObject* r = PyObject_CallNoArgs(tick);
            if (!r) throw Aborted{"", true};
            if (PyUnicode_Check(r)) {  // a limit passed (the memory's): its reason
                const char* text = PyUnicode_AsUTF8(r);
                std::string reason = text ? text : "limit reached";
                Py_DECREF(r);
                PyErr_Clear();
                throw Aborted{reason, false};
            }
            Py_DECREF(r);
        }
    }
    int64_t next_check() const {
        int64_t next = (nodes | 4095) + 1;
        if (max_nodes >= 0) next = std::min(next, std::max(max_nodes + 1, nodes + 1));
        if (seconds >= 0) next = std::min(next, (nodes | 255) + 1);
        if (tick) next = std::min(next, (nodes / tick_every + 1) * tick_every);
        return next;
    }

    // the thresholds a node gives its most promising child (the 1+ε trick)
    void child_thresholds(bool is_or, int64_t th_pn, int64_t th_dn, int64_t pn, int64_t dn,
                          int64_t cpn, int64_t cdn, int64_t second, int64_t& c_th_pn,
                          int64_t& c_th_dn) const {
        int64_t grow = second < INF ? (int64_t)(second * (1 + epsilon)) + 1 : INF;
        if (is_or) { c_th_pn = std::min(th_pn, grow); c_th_dn = share(th_dn, dn, cdn); }
        else { c_th_pn = share(th_pn, pn, cpn); c_th_dn = std::min(th_dn, grow); }
    }
};

}  // namespace
