// The bounded df-pn search, Mate(P, n) exactly (tsumeqbf/dfpn/core.py's DfPn), and its
// tables keyed by position and depth.

#pragma once

#include <stdexcept>

#include "search.h"

namespace {

// Open-addressing hash tables (linear probing, power-of-two sizes, grown at half load):
// std::unordered_map's node per entry cost a quarter of the search's time.

// position key -> smallest depth proven, largest depth disproven
struct SolvedTable {
    struct Slot { uint64_t key; int proof, disproof; bool used; };
    static constexpr int NO_PROOF = 1 << 30, NO_DISPROOF = -1;
    std::vector<Slot> slots = std::vector<Slot>(1 << 12);
    size_t count = 0;

    Slot* find(uint64_t key) {
        size_t mask = slots.size() - 1;
        for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
            if (!slots[i].used) return nullptr;
            if (slots[i].key == key) return &slots[i];
        }
    }
    Slot& get(uint64_t key) {
        if (Slot* s = find(key)) return *s;
        if (2 * (count + 1) > slots.size()) grow();
        ++count;
        size_t mask = slots.size() - 1, i = mix(key) & mask;
        while (slots[i].used) i = (i + 1) & mask;
        slots[i] = Slot{key, NO_PROOF, NO_DISPROOF, true};
        return slots[i];
    }
    void grow() {
        std::vector<Slot> old(slots.size() * 2);
        old.swap(slots);
        size_t mask = slots.size() - 1;
        for (const Slot& s : old)
            if (s.used) {
                size_t i = mix(s.key) & mask;
                while (slots[i].used) i = (i + 1) & mask;
                slots[i] = s;
            }
    }
};

// (position key, depth) -> unsolved numbers and the work behind them; at `limit` entries
// the half with the least work goes
struct NumbersTable {
    // 24 bytes a slot (numbers below INF fit 32 bits, work saturates): the table is read
    // for every child of every expanded node, mostly from memory, so its size is its speed
    static constexpr uint16_t EMPTY = 0xFFFF;  // a depth no entry has (MAX_DEPTH)
    static constexpr int MAX_DEPTH = 0xFFFE;
    struct Slot {
        uint64_t key;
        uint32_t pn, dn, work;
        uint16_t depth;  // the bounded search's plies left; EMPTY: a free slot
        uint16_t seen;   // the unbounded search's least distance from the root (saturated)
        bool used() const { return depth != EMPTY; }
    };
    static uint32_t saturated(int64_t work) { return (uint32_t)std::min<int64_t>(work, UINT32_MAX); }
    std::vector<Slot> slots = std::vector<Slot>(1 << 12, Slot{0, 0, 0, 0, EMPTY, 0});
    size_t count = 0, limit = 2000000;

    static uint64_t hash(uint64_t key, int depth) {
        return mix(key ^ ((uint64_t)(depth + 1) * 0x9E3779B97F4A7C15ull));
    }
    void prefetch(uint64_t key, int depth) const {
        PREFETCH(&slots[hash(key, depth) & (slots.size() - 1)]);
    }
    const Slot* find(uint64_t key, int depth) const {
        size_t mask = slots.size() - 1;
        for (size_t i = hash(key, depth) & mask;; i = (i + 1) & mask) {
            if (!slots[i].used()) return nullptr;
            if (slots[i].key == key && slots[i].depth == depth) return &slots[i];
        }
    }
    Slot* find(uint64_t key, int depth) {
        return const_cast<Slot*>(static_cast<const NumbersTable*>(this)->find(key, depth));
    }
    // (`seen`: the distance from the root the position was reached at, kept least);
    // true when the entry is new
    bool put(uint64_t key, int depth, int64_t pn, int64_t dn, int64_t work, int seen = 0) {
        uint16_t at = (uint16_t)std::min(seen, MAX_DEPTH);
        if (Slot* s = find(key, depth)) {
            s->pn = (uint32_t)pn;
            s->dn = (uint32_t)dn;
            s->work = saturated(s->work + work);
            s->seen = std::min(s->seen, at);
            return false;
        }
        if (count >= limit) drop_least_work();
        if (2 * (count + 1) > slots.size()) rebuild(slots.size() * 2, -1);
        insert(Slot{key, (uint32_t)pn, (uint32_t)dn, saturated(work), (uint16_t)depth, at});
        return true;
    }
    void insert(const Slot& s) {
        size_t mask = slots.size() - 1, i = hash(s.key, s.depth) & mask;
        while (slots[i].used()) i = (i + 1) & mask;
        slots[i] = s;
        ++count;
    }
    // the table again at `size` slots, keeping the entries with more work than `cut`
    // (all when cut < 0) and, of those with exactly `cut`, only as many as `room` allows
    void rebuild(size_t size, int64_t cut, size_t room = 0) {
        std::vector<Slot> old(size, Slot{0, 0, 0, 0, EMPTY, 0});
        old.swap(slots);
        count = 0;
        for (const Slot& s : old) {
            if (!s.used()) continue;
            if (cut >= 0 && (int64_t)s.work < cut) continue;
            if (cut >= 0 && (int64_t)s.work == cut) {
                if (!room) continue;
                --room;
            }
            insert(s);
        }
    }
    template <class F> void each(F&& f) const {
        for (const Slot& s : slots)
            if (s.used()) f(s);
    }
    void drop_least_work() {
        std::vector<int64_t> works;
        works.reserve(count);
        for (const Slot& s : slots)
            if (s.used()) works.push_back(s.work);
        size_t keep_at_cut;
        int64_t cut = half_cut(works, keep_at_cut);
        rebuild(slots.size(), cut, keep_at_cut);
    }
};

struct BoundedSearch : Search {
    NumbersTable table;
    SolvedTable solved;

    bool find(uint64_t key, int depth, int64_t& pn, int64_t& dn) {
        if (const SolvedTable::Slot* s = solved.find(key)) {
            if (s->proof <= depth) { ++tt_hits; pn = 0; dn = INF; return true; }
            if (s->disproof >= depth) { ++tt_hits; pn = INF; dn = 0; return true; }
        }
        const NumbersTable::Slot* e = table.find(key, depth);
        if (!e) return false;
        ++tt_hits;
        pn = e->pn;
        dn = e->dn;
        return true;
    }

    // a proof at depth d holds at every larger depth, a disproof at every smaller one; a
    // solved node's numbers are never read again (the solved table is asked first)
    void store(uint64_t key, int depth, int64_t pn, int64_t dn, int64_t work) {
        if (pn == 0) {
            auto& s = solved.get(key);
            s.proof = std::min(s.proof, depth);
        } else if (dn == 0) {
            auto& s = solved.get(key);
            s.disproof = std::max(s.disproof, depth);
        } else {
            table.put(key, depth, pn, dn, work);
        }
    }

    // numbers of a check not seen before (pos at it, an AND node with `depth` plies left)
    void start_check(uint64_t key, int depth, int64_t& pn, int64_t& dn) {
        int replies = pos.grouped_reply_count(group_drops);
        if (!replies) { store(key, 0, 0, INF, 0); pn = 0; dn = INF; return; }
        if (depth == 0) { store(key, 0, INF, 0, 0); pn = INF; dn = 0; return; }
        pn = replies;
        dn = 1;
    }

    void mid(int depth, int64_t th_pn, int64_t th_dn, int64_t& out_pn, int64_t& out_dn) {
        count_node();
        uint64_t key = pos.key();
        bool is_or = pos.turn == attacker;
        std::vector<int> moves;
        if (is_or) pos.checks(moves); else pos.legal_moves(moves);
        if (moves.empty()) {
            out_pn = is_or ? INF : 0;
            out_dn = is_or ? 0 : INF;
            store(key, depth, out_pn, out_dn, 1);
            return;
        }
        if (!is_or && depth == 0) {
            out_pn = INF; out_dn = 0;
            store(key, depth, INF, 0, 1);
            return;
        }
        int child_depth = depth - 1;
        size_t n = moves.size();
        std::vector<uint64_t> child_keys(n);
        std::vector<int64_t> lpn(n, 1), ldn(n, 1);
        std::vector<int> groups(n, -1);
        for (size_t i = 0; i < n; ++i) {
            pos.push(moves[i]);
            child_keys[i] = pos.key();
            int64_t a, b;
            if (is_or && mobility && !find(pos.key(), child_depth, a, b))
                start_check(pos.key(), child_depth, lpn[i], ldn[i]);
            pos.pop();
            if (!is_or && group_drops && is_drop(moves[i])) groups[i] = move_to(moves[i]);
        }
        int64_t nodes_before = nodes;
        for (;;) {
            int best_i = -1;
            int64_t best = INF + 1, second = INF + 1, other_sum = 0;
            bool infinite = false;
            int64_t group_max[N];
            bool group_used[N] = {};
            for (size_t i = 0; i < n; ++i) {
                int64_t cpn, cdn;
                if (find(child_keys[i], child_depth, cpn, cdn)) { lpn[i] = cpn; ldn[i] = cdn; }
                cpn = lpn[i]; cdn = ldn[i];
                int64_t small = is_or ? cpn : cdn, large = is_or ? cdn : cpn;
                infinite = infinite || large >= INF;
                int g = groups[i];
                if (g < 0) {
                    other_sum += large;
                } else if (!group_used[g]) {
                    group_used[g] = true;
                    group_max[g] = large;
                } else {
                    group_max[g] = std::max(group_max[g], large);
                }
                if (small < best) { best_i = (int)i; second = best; best = small; }
                else if (small < second) second = small;
            }
            for (int g = 0; g < N; ++g)
                if (group_used[g]) other_sum += group_max[g];
            other_sum = capped_sum(other_sum, infinite);
            int64_t pn = is_or ? best : other_sum, dn = is_or ? other_sum : best;
            if (pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0) {
                store(key, depth, pn, dn, nodes - nodes_before + 1);
                out_pn = pn; out_dn = dn;
                return;
            }
            store(key, depth, pn, dn, 0);
            int64_t cpn = lpn[best_i], cdn = ldn[best_i];
            int64_t c_th_pn, c_th_dn;
            child_thresholds(is_or, th_pn, th_dn, pn, dn, cpn, cdn, second, c_th_pn, c_th_dn);
            pos.push(moves[best_i]);
            try {
                mid(child_depth, c_th_pn, c_th_dn, lpn[best_i], ldn[best_i]);
            } catch (...) {
                pos.pop();
                throw;
            }
            pos.pop();
        }
    }

    // 1 mate, 0 no mate; throws Aborted at a limit
    int solve(int n, int& best_move) {
        start_clock();
        return prove(n, best_move);
    }

    // solve() on the clock already started
    int prove(int n, int& best_move) {
        best_move = -1;
        int64_t pn = 1, dn = 1;
        if (!find(pos.key(), n, pn, dn)) { pn = 1; dn = 1; }
        while (pn != 0 && dn != 0) mid(n, INF, INF, pn, dn);
        if (pn != 0) return 0;
        std::vector<int> moves;
        pos.checks(moves);
        for (int m : moves) {
            pos.push(m);
            int64_t a, b;
            bool ok = find(pos.key(), n - 1, a, b) && a == 0;
            pos.pop();
            if (ok) { best_move = m; break; }
        }
        return 1;
    }

    // Mate(P, most) within half the nodes and half the time left (all of either without
    // its limit): 1 mate, 0 no mate, -1 still open at that half
    int first_question(int most) {
        struct Whole {  // the limits of the whole, put back however the question ends
            BoundedSearch& search;
            int64_t max_nodes;
            std::chrono::steady_clock::time_point deadline;
            ~Whole() {
                search.max_nodes = max_nodes;
                search.deadline = deadline;
                search.check_at = search.next_check();
            }
        } whole{*this, max_nodes, deadline};
        auto now = std::chrono::steady_clock::now();
        if (max_nodes >= 0) max_nodes = nodes + (max_nodes - nodes) / 2;
        if (seconds >= 0 && deadline > now) deadline = now + (deadline - now) / 2;
        check_at = next_check();
        try {
            int best;
            return prove(most, best);
        } catch (const Aborted& stop) {
            // the half's limit, not the whole's, a signal's or the memory's
            bool half = (stop.limit == Limit::NODES &&
                         (whole.max_nodes < 0 || nodes <= whole.max_nodes)) ||
                        (stop.limit == Limit::TIME &&
                         std::chrono::steady_clock::now() <= whole.deadline);
            if (!half) throw;
            return -1;
        }
    }

    // the shortest mate from the position (the attacker to move), every ply counted, when
    // it takes at most `most` plies: its line, empty when there is none within `most`;
    // `refuted`: the largest k shown to have no mate. Mate(P, most) is asked first: a
    // caller who has a line of most + 2 plies learns from that one question whether it is
    // the shortest (no mate within `most`, the commonest answer, needs no other k). When
    // there is one, or the question is still open after half the nodes or half the time,
    // k = 1, 3, ... are asked with the same table, each starting from what the questions
    // before it proved and disproved (so a budget that runs out still rules out the small
    // k; `most` asked again last if it was open). Throws
    // Aborted at a limit (one clock, `seconds`, for the whole), logic_error if the tables
    // contradict themselves (a bug).
    std::vector<int> shortest(int most, int& refuted) {
        start_clock();
        std::vector<int> line;
        auto unwind = [&] { for (size_t i = 0; i < line.size(); ++i) pos.pop(); };
        try {
            refuted = -1;
            int n = -1, best;
            int first = most >= 1 ? first_question(most) : 0;
            if (first == 0) n = 0;  // no mate within `most`: no line
            if (first == 0 && most >= 1) refuted = most;
            for (int k = 1; k <= (first == 1 ? most - 2 : most) && n < 0; k += 2) {
                if (prove(k, best)) n = k;
                else refuted = k;
            }
            if (n < 0) n = first == 1 ? most : 0;
            // the attacker keeps to the plies left; the defender takes the first reply whose
            // shortest mate is the longest: one ply less than its node's (were it less, the
            // check before would mate sooner), so the first without a mate two plies sooner
            while (n > 0) {
                if (pos.turn == attacker) {
                    if (!prove(n, best) || best < 0)
                        throw std::logic_error("no check proven within the plies left below a proven node");
                } else {
                    std::vector<int> replies;
                    pos.legal_moves(replies);
                    if (replies.empty()) break;  // mate before the plies run out: a bug below
                    best = n < 4 ? replies[0] : -1;
                    for (size_t i = 0; best < 0 && i < replies.size(); ++i) {
                        pos.push(replies[i]);
                        line.push_back(replies[i]);  // (popped by unwind on a throw)
                        int ignored, sooner = prove(n - 3, ignored);
                        line.pop_back();
                        pos.pop();
                        if (!sooner) best = replies[i];
                    }
                    if (best < 0)
                        throw std::logic_error("every reply mates sooner below a node whose shortest mate is known");
                }
                line.push_back(best);
                pos.push(best);
                --n;
            }
            if (n != 0) throw std::logic_error("a shortest mate's line ended before its plies");
        } catch (...) {
            unwind();
            throw;
        }
        unwind();
        return line;
    }
};

}  // namespace
