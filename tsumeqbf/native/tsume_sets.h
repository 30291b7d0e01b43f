// The unbounded search's smaller sets and caches: the path from the root, the
// path-dependent disproofs (twins), the new checks' reply counts and the checks of OR
// nodes entered again.

#pragma once

#include "tsume_table.h"

namespace {

// a set of (key, path) pairs: open addressing with linear probing, grown at half load,
// erased by shifting the probe run back (std::unordered_set's node per entry cost a
// cache miss more per lookup, and these are asked for every child of every node)
struct PairSet {
    struct Slot { uint64_t key, path; bool used; };
    std::vector<Slot> slots = std::vector<Slot>(1 << 10);
    size_t count = 0;

    static size_t hash(uint64_t key, uint64_t path) { return (size_t)mix(key ^ mix(path)); }
    size_t size() const { return count; }
    bool empty() const { return count == 0; }
    void prefetch(uint64_t key, uint64_t path) const {
        PREFETCH(&slots[hash(key, path) & (slots.size() - 1)]);
    }
    size_t slot_of(uint64_t key, uint64_t path) const {
        size_t mask = slots.size() - 1, i = hash(key, path) & mask;
        while (slots[i].used && !(slots[i].key == key && slots[i].path == path)) i = (i + 1) & mask;
        return i;
    }
    bool contains(uint64_t key, uint64_t path = 0) const {
        return count && slots[slot_of(key, path)].used;
    }
    // (whether it was new)
    bool insert(uint64_t key, uint64_t path = 0) {
        if (2 * (count + 1) > slots.size()) {
            std::vector<Slot> old(slots.size() * 2);
            old.swap(slots);
            for (const Slot& e : old)
                if (e.used) slots[slot_of(e.key, e.path)] = e;
        }
        size_t i = slot_of(key, path);
        if (slots[i].used) return false;
        slots[i] = Slot{key, path, true};
        ++count;
        return true;
    }
    // (whether it was there)
    bool erase(uint64_t key, uint64_t path = 0) {
        size_t mask = slots.size() - 1, i = slot_of(key, path);
        if (!slots[i].used) return false;
        slots[i].used = false;
        --count;
        // later entries of the run whose home is not between the hole and them move back
        for (size_t j = (i + 1) & mask; slots[j].used; j = (j + 1) & mask) {
            size_t home = hash(slots[j].key, slots[j].path) & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                slots[i] = slots[j];
                slots[j].used = false;
                i = j;
            }
        }
        return true;
    }
    template <class F> void each(F&& f) const {
        for (const Slot& e : slots)
            if (e.used) f(e.key, e.path);
    }
    void clear() {
        std::fill(slots.begin(), slots.end(), Slot{0, 0, false});
        count = 0;
    }
};

// the positions on the path from the root: a PairSet behind a count per value of the
// key's top bits (4 KB, hot in the cache), so that a child off the path, nearly every one,
// is told so by one byte rather than a probe of the set (those probes were 5 % of the
// search's time); a count that reaches SATURATED stays there
struct PathSet {
    static constexpr int BITS = 12;
    static constexpr uint8_t SATURATED = 255;
    PairSet set;
    std::vector<uint8_t> counts = std::vector<uint8_t>(size_t(1) << BITS);
    static size_t slot(uint64_t key) { return (size_t)(key >> (64 - BITS)); }
    bool contains(uint64_t key) const { return counts[slot(key)] && set.contains(key); }
    void insert(uint64_t key) {
        uint8_t& n = counts[slot(key)];
        if (set.insert(key) && n < SATURATED) ++n;
    }
    void erase(uint64_t key) {
        uint8_t& n = counts[slot(key)];
        if (set.erase(key) && n < SATURATED) --n;
    }
};

// the path-dependent disproofs, (position key, path key) pairs: a PairSet behind a bit per
// value of the key's top bits (2 KB), so that a child whose key has no twin entry, nearly
// every one, is told so without hashing its path and probing the set (the set is only
// ever cleared as a whole, so a bit is never taken back alone)
struct TwinSet {
    static constexpr int BITS = 14;
    PairSet set;
    std::vector<uint64_t> keys = std::vector<uint64_t>(size_t(1) << (BITS - 6));
    static size_t slot(uint64_t key) { return (size_t)(key >> (64 - BITS)); }
    bool may_hold(uint64_t key) const { return keys[slot(key) >> 6] >> (slot(key) & 63) & 1; }
    size_t size() const { return set.size(); }
    bool empty() const { return set.empty(); }
    void prefetch(uint64_t key, uint64_t path) const {
        if (may_hold(key)) set.prefetch(key, path);
    }
    bool contains(uint64_t key, uint64_t path) const {
        return may_hold(key) && set.contains(key, path);
    }
    void insert(uint64_t key, uint64_t path) {
        keys[slot(key) >> 6] |= uint64_t(1) << (slot(key) & 63);
        set.insert(key, path);
    }
    void clear() {
        set.clear();
        std::fill(keys.begin(), keys.end(), 0);
    }
    template <class F> void each(F&& f) const { set.each(f); }
};

// new checks' reply counts by position key, a slot per value of the key's low bits (the
// key's other bits and the count in it, 0: none): an OR node searched again counts again
// the replies of the checks nothing was stored for (a quarter of the counts on the Edo
// problems), and a count read here is a count not made
struct ReplyCounts {
    static constexpr int BITS = 14;
    static constexpr uint64_t COUNT = 0xFF;
    std::vector<uint64_t> slots = std::vector<uint64_t>(size_t(1) << BITS);
    static constexpr uint64_t MASK = (uint64_t(1) << BITS) - 1;
    uint64_t& slot(uint64_t key) { return slots[key & MASK]; }
    void prefetch(uint64_t key) const { PREFETCH(&slots[key & MASK]); }
    // the count stored for key, else -1
    int find(uint64_t key) {
        uint64_t s = slot(key);
        return s && (s & ~COUNT) == (key & ~COUNT) ? (int)(s & COUNT) : -1;
    }
    void put(uint64_t key, int count) {
        if (count > 0 && (uint64_t)count <= COUNT) slot(key) = (key & ~COUNT) | (uint64_t)count;
    }
};

// the checks of OR nodes left unsolved, kept for when the search enters them again (df-pn
// enters a node again as its thresholds change: a third of the OR nodes searched on the
// Edo problems), so that such a node takes its list rather than making it again (the
// checks are a sixth of the search's instructions; nine in ten nodes entered again find
// their list here). A 64-byte slot per value of the position key's top bits (4 MB), the last
// list put there kept, with the board's key and both hands (a list read for another
// position would be a wrong verdict). The moves are kept in their listed order (the order
// steers the search); a list longer than a slot holds (one in 200) is made each time. (The
// AND nodes' replies, cheaper to list, did not pay for the fetches of every OR node's
// children's slots.)
struct MoveLists {
    static constexpr int BITS = 16;
    static constexpr int ROOM = 20;
    struct alignas(64) Slot {
        uint64_t board = 0;
        uint64_t word = 0;  // the attacker's hand (bytes 0-6) and the number of moves (byte 7; 0: free)
        uint64_t dfn = 0;   // the defender's hand
        uint16_t moves[ROOM];
    };
    static_assert(sizeof(Slot) == 64, "a slot a line");
    std::vector<Slot> slots = std::vector<Slot>(size_t(1) << BITS);
    static size_t index(uint64_t key) { return (key * 0x9E3779B97F4A7C15ull) >> (64 - BITS); }
    void prefetch(uint64_t key) const { PREFETCH(&slots[index(key)]); }
    // the moves kept for the position (key, d) into `out`; false when there are none
    bool find(uint64_t key, const Dom& d, std::vector<int>& out) const {
        const Slot& s = slots[index(key)];
        size_t n = s.word >> 56;
        if (!n || s.board != d.board || (s.word & BoardTable::HAND) != hand_bits(d.att) ||
            s.dfn != hand_bits(d.dfn))
            return false;
        out.resize(n);
        for (size_t i = 0; i < n; ++i) out[i] = s.moves[i];
        return true;
    }
    void put(uint64_t key, const Dom& d, const std::vector<int>& moves) {
        size_t n = moves.size();
        if (!n || n > ROOM) return;
        Slot& s = slots[index(key)];
        s.board = d.board;
        s.word = hand_bits(d.att) | (uint64_t)n << 56;
        s.dfn = hand_bits(d.dfn);
        for (size_t i = 0; i < n; ++i) s.moves[i] = (uint16_t)moves[i];
    }
};

}  // namespace
