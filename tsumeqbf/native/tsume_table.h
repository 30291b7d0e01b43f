// The unbounded search's hands and its table by board: proofs and disproofs with the
// hands they need, and the unsolved positions' numbers.

#pragma once

#include "search.h"

namespace {

constexpr int MANY = 99;  // "any number" of a kind in an allowed hand
constexpr int KINDS = 7;  // hand kinds PAWN..ROOK at indexes 0..6

// (eight bytes, the last always 0, so that a hand is read as one word: hand_bits)
struct alignas(8) Hand {
    uint8_t n[KINDS];
    uint8_t zero = 0;
};

struct Dom {
    uint64_t board;  // board and side to move
    Hand att, dfn;
};

// the tables' keys of p: its board, the attacker's hand and the defender's
inline Dom dominance_of(const Position& p, int attacker) {
    Dom d;
    d.board = p.bkey;
    for (int i = 0; i < KINDS; ++i) {
        d.att.n[i] = (uint8_t)p.hands[attacker][i + 1];
        d.dfn.n[i] = (uint8_t)p.hands[attacker ^ 1][i + 1];
    }
    return d;
}

// a hand as a word, kind PAWN + i in byte i (byte 7 zero): dominance in a few instructions
inline uint64_t hand_bits(const Hand& h) {
    uint64_t x;
    std::memcpy(&x, &h, sizeof x);
    return x;
}

inline Hand hand_of(uint64_t x) {  // (x's byte 7 zero)
    Hand h;
    std::memcpy(static_cast<void*>(&h), &x, sizeof h);
    return h;
}

// whether hand x dominates hand y (every byte of x at least the same byte of y, unsigned:
// the low seven bits of each byte subtracted without a borrow, the top bits compared apart)
inline bool at_least(uint64_t x, uint64_t y) {
    constexpr uint64_t TOP = 0x8080808080808080ull;
    uint64_t low = (x | TOP) - (y & ~TOP);
    return (((x & ~y) | (~(x ^ y) & low)) & TOP) == TOP;
}

// The unbounded search's table (TsumeTables): the proofs, the path-independent disproofs
// and the unsolved positions' numbers (at `limit` unsolved entries the half with the least
// work goes), keyed by the board (the pieces on it and the side to move) alone, an entry
// per hand pair. Buckets of two 32-byte entries, one cache line each: a board's entries
// go to its home bucket, or when that is full to the next bucket with room, and each
// bucket counts the entries that passed it so (F14's overflow counts: a lookup stops at
// the first bucket none passed). A child's lookup (proofs and disproofs by dominance, its
// numbers, the numbers of its other hands it inherits) mostly reads one line and a
// counter, where a board index, the board's proof lists and a table of unsolved
// positions were two to four dependent reads.
// Where entries lie says nothing of their order: of the proofs covering a position the
// first is the one with the smallest sequence number, of the disproofs likewise (their
// own numbering).
// An unsolved entry holds the attacker's hand alone: pieces are neither made nor lost, so
// on one board the two hands hold the same pieces in all (those not on the board), and
// the attacker's hand fixes the defender's.
struct BoardTable {
    enum Kind : uint8_t { FREE = 0, UNSOLVED, PROOF, DISPROOF };
    static constexpr uint64_t HAND = 0x00FFFFFFFFFFFFFFull;
    static constexpr int MAX_SEEN = 0xFFFE;  // distances from the root saturate here
    struct alignas(32) Entry {
        uint64_t board;
        // bytes 0-6 the attacker's hand (unsolved), the hand a proof needs or a disproof
        // allows; byte 7 the kind (a free entry: all zero)
        uint64_t word;
        union {
            // unsolved: the numbers, the work behind them (saturating), the least
            // distance from the root the position was reached at
            struct { uint32_t pn, dn, work; uint16_t seen; } u;
            // the defender's hand a proof allows or a disproof needs; the sequence number
            // (proofs and disproofs each numbered in the order stored) and for a proof
            // `dist`, the plies of the longest line through the proof tree it stands for
            // (the attacker taking the check it was proven by, the defender any reply):
            // the line printer's guide
            struct { uint64_t dfn; int32_t seq, dist; } s;
        };
        Kind kind() const { return (Kind)(word >> 56); }
        uint64_t att() const { return word & HAND; }
    };
    static_assert(sizeof(Entry) == 32, "two entries to a cache line");
    static constexpr uint8_t SATURATED = 255;  // a count this high is never lowered

    Entry* slots = nullptr;  // 2 * buckets entries
    std::vector<uint8_t> passed;  // per bucket: entries stored beyond it from before it
    size_t size = 0, used = 0, unsolved = 0, limit = 2000000;
    size_t buckets_mask = 0;  // size / 2 - 1, kept (the scans' loops read it every step)
    uint64_t rebuilds = 0;  // entries move only when the table is rebuilt
    // where a node's own unsolved entry was last put: read again only after a rebuild
    // (or when another entry has taken the slot)
    struct OwnSlot { Entry* entry = nullptr; uint64_t rebuilds = 0; };

    // when each board was last written, for a reader that looked it up before: the writes
    // are numbered, and a small array (hot in the cache, where the entries are not) keeps
    // the last number per slot, a board's slot picked by its key's top bits (many boards
    // share one: a write to any of them counts for all); `wiped`, the last write that
    // may have changed any board (the half with the least work dropped)
    static constexpr int STAMP_BITS = 11;
    uint64_t writes = 0, wiped = 0;
    std::vector<uint64_t> stamps = std::vector<uint64_t>(size_t(1) << STAMP_BITS);
    void touch(uint64_t board) { stamps[board >> (64 - STAMP_BITS)] = ++writes; }
    void touch_all() { wiped = ++writes; }
    // false only when nothing stored for `board` can have changed since write `since`
    bool written_since(uint64_t board, uint64_t since) const {
        return wiped > since || stamps[board >> (64 - STAMP_BITS)] > since;
    }

    BoardTable() : slots(fresh(1 << 12)), passed(1 << 11), size(1 << 12), buckets_mask((1 << 11) - 1) {}
    ~BoardTable() { std::free(slots); }
    BoardTable(const BoardTable&) = delete;
    BoardTable& operator=(const BoardTable&) = delete;

    static Entry* fresh(size_t n) {
        auto* s = static_cast<Entry*>(std::aligned_alloc(64, n * sizeof(Entry)));
        if (!s) throw std::bad_alloc();
        std::memset(s, 0, n * sizeof(Entry));
        return s;
    }
    static Entry solved(Kind kind, uint64_t board, const Hand& att, const Hand& dfn,
                        int32_t seq, int32_t dist = 0) {
        Entry e{};
        e.board = board;
        e.word = hand_bits(att) | (uint64_t)kind << 56;
        e.s.dfn = hand_bits(dfn);
        e.s.seq = seq;
        e.s.dist = dist;
        return e;
    }

    size_t mask() const { return buckets_mask; }
    // a board's hash: its home bucket's number in its low bits at any size (a search
    // keeps it with each child rather than mixing the key again for every read)
    static uint64_t hash(uint64_t board) { return mix(board); }
    size_t home(uint64_t board) const { return hash(board) & mask(); }
    void prefetch(uint64_t board) const { prefetch_hashed(hash(board)); }
    // (the lines fetched as prefetch_hashed() fetches them; the table must not move while
    // `pos` lists)
    void listing_fetches(Position& pos) const {
        static_assert(sizeof(Entry) * 2 == 64, "a bucket a line");
        pos.fetch_lines = reinterpret_cast<const char*>(slots);
        pos.fetch_counts = passed.data();
        pos.fetch_mask = mask();
    }
    void prefetch_hashed(uint64_t h) const {
        size_t b = h & mask();
        PREFETCH(&slots[2 * b]);
        PREFETCH(&passed[b]);
    }

    // f(entry) for each of the board's entries, until f returns true
    template <class F> void scan(uint64_t board, F&& f) const { scan_hashed(board, hash(board), f); }
    // (`h`: hash(board))
    template <class F> void scan_hashed(uint64_t board, uint64_t h, F&& f) const {
        size_t mask = buckets_mask, b = h & mask;
        for (size_t left = mask + 1; left; --left, b = (b + 1) & mask) {
            const Entry* e = &slots[2 * b];
            if (e[0].board == board && e[0].word && f(e[0])) return;
            if (e[1].board == board && e[1].word && f(e[1])) return;
            if (!passed[b]) return;
        }
    }
    // f(entry) for every entry
    template <class F> void each(F&& f) const {
        for (size_t i = 0; i < size; ++i)
            if (slots[i].word) f(slots[i]);
    }

    const Entry* find_unsolved(uint64_t board, uint64_t att) const {
        const Entry* found = nullptr;
        uint64_t word = att | (uint64_t)UNSOLVED << 56;
        scan(board, [&](const Entry& e) {
            if (e.word != word) return false;
            found = &e;
            return true;
        });
        return found;
    }
    Entry* find_unsolved(uint64_t board, uint64_t att) {
        return const_cast<Entry*>(static_cast<const BoardTable*>(this)->find_unsolved(board, att));
    }

    static uint32_t saturated(int64_t work) { return (uint32_t)std::min<int64_t>(work, UINT32_MAX); }
    // an unsolved position's numbers, `work` added to what it had and `seen` (its
    // distance from the root) kept least
    // (`at`: where the caller last found this entry, with the table's `rebuilds` then;
    // read first, and set to where it is now)
    void put(uint64_t board, uint64_t att, int64_t pn, int64_t dn, int64_t work, int seen,
             OwnSlot* at = nullptr) {
        uint16_t least = (uint16_t)std::min(seen, MAX_SEEN);
        uint64_t word = att | (uint64_t)UNSOLVED << 56;
        touch(board);
        Entry* e = at && at->entry && at->rebuilds == rebuilds && at->entry->board == board &&
                   at->entry->word == word ? at->entry : find_unsolved(board, att);
        if (e) {
            e->u.pn = (uint32_t)pn;
            e->u.dn = (uint32_t)dn;
            e->u.work = saturated(e->u.work + work);
            e->u.seen = std::min(e->u.seen, least);
        } else {
            if (unsolved >= limit) drop_least_work();
            Entry fresh_entry{};
            fresh_entry.board = board;
            fresh_entry.word = word;
            fresh_entry.u.pn = (uint32_t)pn;
            fresh_entry.u.dn = (uint32_t)dn;
            fresh_entry.u.work = saturated(work);
            fresh_entry.u.seen = least;
            e = insert(fresh_entry);
        }
        if (at) { at->entry = e; at->rebuilds = rebuilds; }
    }
    // grown at half load up to BIG entries (a gigabyte), at three quarters beyond: a
    // long search's table (zukou-008: over 35 million entries) then stays within 2 GB
    // where doubling again would take 4 GB, and 6 GB while it is rebuilt; the fuller
    // table costs some speed, not nodes (what is stored does not depend on the layout)
    static constexpr size_t BIG = (size_t)1 << 25;
    Entry* insert(const Entry& e) {
        touch(e.board);
        if (size < BIG ? 2 * (used + 1) > size : 4 * (used + 1) > 3 * size)
            rebuild(size * 2, -1);
        return place(e);
    }
    Entry* place(const Entry& e) {
        Entry* at;
        for (size_t b = home(e.board);; b = (b + 1) & mask()) {
            Entry* s = &slots[2 * b];
            if (!s[0].word || !s[1].word) {
                at = &s[s[0].word ? 1 : 0];
                *at = e;
                break;
            }
            if (passed[b] < SATURATED) ++passed[b];
        }
        ++used;
        unsolved += e.kind() == UNSOLVED;
        return at;
    }
    void erase(Entry* e) {
        touch(e->board);
        for (size_t b = home(e->board), at = (size_t)(e - slots) / 2; b != at; b = (b + 1) & mask())
            if (passed[b] < SATURATED) --passed[b];
        unsolved -= e->kind() == UNSOLVED;
        --used;
        e->word = 0;
    }
    // the table again at `n` entries with every proof and disproof, the unsolved entries
    // with more work than `cut` (all when cut < 0) and, of those with exactly `cut`, the
    // first `room`
    void rebuild(size_t n, int64_t cut, size_t room = 0) {
        Entry* old = slots;
        size_t old_size = size;
        std::vector<uint8_t> counts(n / 2);
        slots = fresh(n);  // the table stays as it was if this throws
        ++rebuilds;
        passed.swap(counts);
        size = n;
        buckets_mask = n / 2 - 1;
        used = unsolved = 0;
        // (each entry's new line fetched some entries ahead: the new table is cold)
        constexpr size_t AHEAD = 16;
        for (size_t i = 0; i < old_size; ++i) {
            if (i + AHEAD < old_size && old[i + AHEAD].word) prefetch(old[i + AHEAD].board);
            const Entry& e = old[i];
            if (!e.word) continue;
            if (cut >= 0 && e.kind() == UNSOLVED) {
                if ((int64_t)e.u.work < cut) continue;
                if ((int64_t)e.u.work == cut) {
                    if (!room) continue;
                    --room;
                }
            }
            place(e);
        }
        std::free(old);
    }
    void drop_least_work() {
        touch_all();
        std::vector<int64_t> works;
        works.reserve(unsolved);
        each([&](const Entry& e) {
            if (e.kind() == UNSOLVED) works.push_back(e.u.work);
        });
        size_t keep_at_cut;
        int64_t cut = half_cut(works, keep_at_cut);
        rebuild(size, cut, keep_at_cut);
    }
};

}  // namespace
