// Checkpoints (Tsume.save / Tsume.load): the unbounded search's tables as records, field
// by field, read through the tables' own walks and written back through their store
// functions, so the file does not change with how the tables are laid out in memory.
// (The functions are declared inline as members are: without it GCC weighed the unit's
// inlining otherwise and the node loop's move generation came out differently.)

#pragma once

#include <cstdio>

#include "tsume.h"

namespace {

struct TableOut {
    FILE* f;
    bool ok = true;
    template <class V> void put(const V& v) { ok = ok && std::fwrite(&v, sizeof v, 1, f) == 1; }
    void put(const Hand& h) { ok = ok && std::fwrite(h.n, KINDS, 1, f) == 1; }
};
struct TableIn {
    FILE* f;
    bool ok = true;
    template <class V> V get() {
        V v{};
        ok = ok && std::fread(&v, sizeof v, 1, f) == 1;
        return v;
    }
    Hand hand() {
        Hand h{};
        ok = ok && std::fread(h.n, KINDS, 1, f) == 1;
        return h;
    }
};
constexpr uint32_t TABLES_MAGIC = 0x544E5154;  // "TQNT"

// every entry of `kind` in the search's table, to f
template <class F> void each_of(const UnboundedSearch& search, BoardTable::Kind kind, F&& f) {
    search.table.each([&](const BoardTable::Entry& e) {
        if (e.kind() == kind) f(e);
    });
}
inline uint64_t count_of(const UnboundedSearch& search, BoardTable::Kind kind) {
    uint64_t n = 0;
    each_of(search, kind, [&](const BoardTable::Entry&) { ++n; });
    return n;
}

// proofs and disproofs with their sequence numbers; an unsolved position as its board
// and the attacker's hand (the defender's is the rest)
inline void write_tables(const UnboundedSearch& search, TableOut& o, uint32_t version) {
    o.put(TABLES_MAGIC); o.put(version);
    o.put(search.nodes); o.put(search.tt_hits); o.put(search.seq); o.put(search.n_proofs);
    o.put(search.n_disproofs);
    o.put(count_of(search, BoardTable::PROOF));
    each_of(search, BoardTable::PROOF, [&](const BoardTable::Entry& e) {
        o.put(e.board); o.put(hand_of(e.att())); o.put(hand_of(e.s.dfn));
        o.put((int64_t)e.s.seq); o.put(e.s.dist);
    });
    o.put(count_of(search, BoardTable::DISPROOF));
    each_of(search, BoardTable::DISPROOF, [&](const BoardTable::Entry& e) {
        o.put(e.board); o.put(hand_of(e.att())); o.put(hand_of(e.s.dfn)); o.put(e.s.seq);
    });
    o.put(count_of(search, BoardTable::UNSOLVED));
    each_of(search, BoardTable::UNSOLVED, [&](const BoardTable::Entry& e) {
        o.put(e.board); o.put(hand_of(e.att()));
        o.put(e.u.pn); o.put(e.u.dn); o.put(e.u.work); o.put(e.u.seen);
    });
    o.put((uint64_t)search.twins.size());
    search.twins.each([&](uint64_t key, uint64_t path) { o.put(key); o.put(path); });
    o.put(TABLES_MAGIC);
}

// the start of what write_tables wrote: why it is not this core's, empty when it is
inline std::string read_head(TableIn& in, uint32_t version) {
    if (in.get<uint32_t>() != TABLES_MAGIC || !in.ok) return "not a table file of the native core";
    uint32_t theirs = in.get<uint32_t>();
    if (theirs != version)
        return "written by core VERSION " + std::to_string(theirs) + ", this is VERSION " +
               std::to_string(version);
    return "";
}

// a proof record of write_tables: false when it is cut short or its sequence number
// is beyond the table's
inline bool read_proof(TableIn& in, BoardTable::Entry& e) {
    uint64_t board = in.get<uint64_t>();
    Hand att = in.hand(), dfn = in.hand();
    int64_t s = in.get<int64_t>();
    int32_t dist = in.get<int32_t>();
    if (!in.ok || s <= INT32_MIN || s >= INT32_MAX) return false;
    e = BoardTable::solved(BoardTable::PROOF, board, att, dfn, (int32_t)s, dist);
    return true;
}

// into a search that has not run: what write_tables wrote (with `version`); the reason
// it cannot be read, empty when it was
inline std::string read_tables(UnboundedSearch& search, TableIn& in, uint32_t version) {
    std::string why = read_head(in, version);
    if (!why.empty()) return why;
    search.nodes = in.get<int64_t>(); search.tt_hits = in.get<int64_t>();
    search.seq = in.get<int64_t>(); search.n_proofs = in.get<int64_t>();
    search.n_disproofs = in.get<int64_t>();
    for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
        BoardTable::Entry e;
        if (read_proof(in, e)) search.table.insert(e);
        else in.ok = false;
    }
    for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
        uint64_t board = in.get<uint64_t>();
        Hand att = in.hand(), dfn = in.hand();
        int32_t s = in.get<int32_t>();
        if (in.ok)
            search.table.insert(BoardTable::solved(BoardTable::DISPROOF, board, att, dfn, s));
    }
    for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
        uint64_t board = in.get<uint64_t>();
        Hand att = in.hand();
        uint32_t pn = in.get<uint32_t>(), dn = in.get<uint32_t>(), work = in.get<uint32_t>();
        uint16_t seen = in.get<uint16_t>();
        if (in.ok) search.table.put(board, hand_bits(att), pn, dn, work, seen);
    }
    for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
        uint64_t key = in.get<uint64_t>(), path = in.get<uint64_t>();
        if (in.ok && search.twins.size() < search.twin_limit) search.twins.insert(key, path);
    }
    if (in.get<uint32_t>() != TABLES_MAGIC || !in.ok ||
        search.seq >= INT32_MAX || search.n_disproofs >= INT32_MAX)
        return "truncated or damaged";
    return "";
}

// the proofs of another search's file (seeds: TsumeTables.add_proofs), numbered
// before this search's own in their own order, so a proven node's children still
// come earlier; those held already (the same seed before a checkpoint) are skipped.
// `added` counts the new ones; the reason the file cannot be read, empty when it was
inline std::string read_proofs(UnboundedSearch& search, TableIn& in, uint32_t version, int64_t& added) {
    std::string why = read_head(in, version);
    if (!why.empty()) return why;
    for (int i = 0; i < 5; ++i) in.get<int64_t>();  // the counters: this search's stay
    std::vector<BoardTable::Entry> seeds;
    for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
        BoardTable::Entry e;
        if (read_proof(in, e)) seeds.push_back(e);
        else in.ok = false;
    }
    if (!in.ok) return "truncated or damaged";
    int64_t before = 1, last = 0, first = 0;
    each_of(search, BoardTable::PROOF, [&](const BoardTable::Entry& e) {
        before = std::min<int64_t>(before, e.s.seq);
    });
    for (const BoardTable::Entry& p : seeds) {
        last = std::max<int64_t>(last, p.s.seq);
        first = std::min<int64_t>(first, p.s.seq);
    }
    int64_t shift = before - 1 - last;  // the seed's last proof just before our first
    if (first + shift <= INT32_MIN) return "more proofs than the table numbers";
    added = 0;
    for (BoardTable::Entry& p : seeds) {
        bool held = false;
        search.table.scan(p.board, [&](const BoardTable::Entry& e) {
            held = e.kind() == BoardTable::PROOF && e.word == p.word && e.s.dfn == p.s.dfn;
            return held;
        });
        if (held) continue;
        p.s.seq = (int32_t)(p.s.seq + shift);
        search.table.insert(p);
        ++search.n_proofs;
        ++added;
    }
    return "";
}

}  // namespace
