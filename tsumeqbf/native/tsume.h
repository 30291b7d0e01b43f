// The unbounded df-pn search (tsumeqbf/dfpn/tsume.py's TsumeSearch).
//
// Without Nagai's heuristics, simulation or probes; with the two steers the Python search
// has by default (the DAG correction, inherited numbers: without them 11 Edo problems it
// solves within 1M nodes went unsolved here), and with what keeps it sound, as there:
// * repetition is a failure for the attacker; a disproof that depends on a repetition is
//   a twin entry keyed by the position and the path that led to it (GHI);
// * proofs and path-independent disproofs are kept per board with the hands they need
//   (proof and disproof pieces, TsumeTables.proof_pieces/disproof_pieces) and cover the
//   same board with dominated hands; proofs carry a sequence number, so that a walk
//   through proven children towards smaller numbers never goes round a cycle.

#pragma once

#include "tsume_sets.h"

namespace {

struct Child {
    uint64_t key;
    uint64_t hash;  // BoardTable::hash(dom.board)
    Dom dom;
    bool repeated;
    bool stale;      // looked up again this round: the last searched, or its board written
    int64_t pn, dn;  // the last known numbers
    bool dep;        // a path-dependent disproof
    int seen;        // its unsolved entry's least distance from the root; -1: none read
    bool shared;     // that distance nearer the root than its parent's child (a DAG merge)
    int group;       // the reply group it counts in (AND nodes), -1: none
};

inline uint64_t path_step(uint64_t path, uint64_t key) {
    return (path ^ mix(key)) * 0x9E3779B97F4A7C15ull + 1;
}

struct UnboundedSearch : Search {
    using Entry = BoardTable::Entry;
    BoardTable table;  // proofs, path-independent disproofs and unsolved numbers, by board
    TwinSet twins;    // path-dependent disproofs: (position key, path key)
    PathSet on_path;  // the positions from the root to the node searched
    ReplyCounts reply_counts;  // (under this search's grouping options)
    MoveLists move_lists;
    size_t twin_limit = 1000000;
    bool dag = true;      // the double-count correction where paths merge (TsumeOptions.dag)
    bool inherit = true;  // new positions start from the same board's numbers (.inherit)
    // every interposition of an AND node counted once, in its proof-number sum and in a
    // new check's starting number (TsumeOptions.group_interpositions; it takes in
    // group_drops, as every drop is an interposition)
    bool group_interpositions = false;

    // a new position's starting numbers raised to those of the same board's unsolved
    // positions with other hands (TsumeTables.inherited): where the attacker holds at
    // least as much and the defender at most, that proof number is a floor; the other way
    // round, that disproof number (on one board the defender's hand is the rest of the
    // attacker's, see BoardTable, so the attacker's hands alone are compared). Positions on
    // the path are left out (their numbers would feed back).
    void inherited(const Dom& d, uint64_t hash, int64_t& pn, int64_t& dn) const {
        uint64_t att = hand_bits(d.att);
        table.scan_hashed(d.board, hash, [&](const Entry& e) {
            if (e.kind() != BoardTable::UNSOLVED) return false;
            bool floor_pn = e.u.pn > pn && at_least(e.att(), att);
            bool floor_dn = e.u.dn > dn && at_least(att, e.att());
            if ((floor_pn || floor_dn) && !on_path.contains(key_of(d, e.att()))) {
                if (floor_pn) pn = e.u.pn;
                if (floor_dn) dn = e.u.dn;
            }
            return false;
        });
    }
    int64_t seq = 0;
    int64_t n_proofs = 0, n_disproofs = 0;
    // what the answer's walks keep between calls (py_answer.h's ProvenGraph): it holds
    // while the tables do, and goes with them
    std::shared_ptr<void> ranking;

    Dom dom() const { return dominance_of(pos, attacker); }

    // the position key and dominance after move m (`here`: the position's dominance), as
    // push() would leave them: the board's key from Position::board_after, the hands from
    // the move
    uint64_t key_after(int m, const Dom& here, Dom& out) const {
        int to = move_to(m), frm = move_from(m), c = pos.turn;
        uint64_t hkey = pos.hkey;
        out = here;
        out.board = pos.board_after(m);
        uint8_t* hand = c == attacker ? out.att.n : out.dfn.n;
        if (frm >= DROP_BASE) {
            int kind = frm - DROP_BASE;
            hkey -= T->zh[c][kind];
            hand[kind - 1] -= 1;
        } else if (int captured = pos.board[to]) {
            int kind = Position::base_kind(captured);
            if (kind != KING) {
                hkey += T->zh[c][kind];
                hand[kind - 1] += 1;
            }
        }
        return out.board ^ hkey;
    }

    // -- what the table holds --------------------------------------------------------------
    // the proof covering d with the smallest sequence number, else null
    const Entry* proof_covering(const Dom& d) const {
        uint64_t att = hand_bits(d.att), dfn = hand_bits(d.dfn);
        const Entry* best = nullptr;
        table.scan(d.board, [&](const Entry& e) {
            if (e.kind() == BoardTable::PROOF && at_least(att, e.att()) &&
                at_least(e.s.dfn, dfn) && (!best || e.s.seq < best->s.seq))
                best = &e;
            return false;
        });
        return best;
    }

    // the first path-independent disproof stored that covers d, else null
    const Entry* disproof_covering(const Dom& d) const {
        uint64_t att = hand_bits(d.att), dfn = hand_bits(d.dfn);
        const Entry* first = nullptr;
        table.scan(d.board, [&](const Entry& e) {
            if (e.kind() == BoardTable::DISPROOF && at_least(e.att(), att) &&
                at_least(dfn, e.s.dfn) && (!first || e.s.seq < first->s.seq))
                first = &e;
            return false;
        });
        return first;
    }

    // (pn, dn, dep) of a child reached on path `path`; false when nothing is stored
    // (and `seen`, the unsolved entry's least distance from the root, when that is read).
    // One pass over the board's entries: a proof, else a disproof, else a twin entry, else
    // the child's own numbers.
    // (`board_held`, when given: whether the table holds any entry of the child's board)
    bool lookup(const Child& c, uint64_t path, int64_t& pn, int64_t& dn, bool& dep, int& seen,
                bool* board_held = nullptr) {
        if (c.repeated) { pn = INF; dn = 0; dep = true; return true; }
        uint64_t att = hand_bits(c.dom.att), dfn = hand_bits(c.dom.dfn);
        uint64_t own = att | (uint64_t)BoardTable::UNSOLVED << 56;
        bool proven = false, disproven = false, held = false;
        const Entry* numbers = nullptr;
        table.scan_hashed(c.dom.board, c.hash, [&](const Entry& e) {
            held = true;
            switch (e.kind()) {
            case BoardTable::PROOF:
                proven = at_least(att, e.att()) && at_least(e.s.dfn, dfn);
                return proven;
            case BoardTable::DISPROOF:
                disproven = disproven || (at_least(e.att(), att) && at_least(dfn, e.s.dfn));
                return false;
            default:
                if (e.word == own) numbers = &e;
                return false;
            }
        });
        if (board_held) *board_held = held;
        if (proven) { ++tt_hits; pn = 0; dn = INF; dep = false; return true; }
        if (disproven) { ++tt_hits; pn = INF; dn = 0; dep = false; return true; }
        if (!twins.empty() && twins.contains(c.key, path)) {
            ++tt_hits; pn = INF; dn = 0; dep = true; return true;
        }
        if (numbers) {
            ++tt_hits;
            pn = numbers->u.pn; dn = numbers->u.dn; dep = false; seen = numbers->u.seen;
            return true;
        }
        return false;
    }

    // -- proof and disproof pieces (TsumeTables.proof_pieces / disproof_pieces) -----------
    // a child's hand bound in its parent's terms: the move changed the hand from `here`
    // to `there`
    static int back(int bound, int here, int there) { return bound - (there - here); }

    // the smallest attacker's hand and the largest defender's hand for which the proof
    // through `proven` (a mate: none) holds; false: keep the node's own hands
    bool proof_pieces(const Dom& d, bool is_or, const std::vector<const Dom*>& proven,
                      Hand& need_out, Hand& allow_out) const {
        int need[KINDS], allow[KINDS];
        for (int i = 0; i < KINDS; ++i) { need[i] = 0; allow[i] = MANY; }
        if (!is_or && proven.empty()) {
            for (int i = 0; i < KINDS; ++i) allow[i] = d.dfn.n[i] ? MANY : 0;
        } else {
            for (const Dom* c : proven) {
                const Entry* cover = proof_covering(*c);
                if (!cover) return false;
                Hand ca = hand_of(cover->att()), cd = hand_of(cover->s.dfn);
                for (int i = 0; i < KINDS; ++i) {
                    need[i] = std::max({need[i], back(ca.n[i], d.att.n[i], c->att.n[i]), 0});
                    allow[i] = std::min(allow[i], back(cd.n[i], d.dfn.n[i], c->dfn.n[i]));
                }
            }
            if (!is_or)  // the defender may not gain a kind it does not hold: a new reply
                for (int i = 0; i < KINDS; ++i) if (!d.dfn.n[i]) allow[i] = 0;
        }
        for (int i = 0; i < KINDS; ++i)
            if (need[i] > d.att.n[i] || allow[i] < d.dfn.n[i]) return false;
        for (int i = 0; i < KINDS; ++i) {
            need_out.n[i] = (uint8_t)need[i];
            allow_out.n[i] = (uint8_t)std::min(allow[i], MANY);
        }
        return true;
    }

    // the largest attacker's hand and the smallest defender's hand for which the disproof
    // through `disproven` (an OR node without a check: none) holds
    bool disproof_pieces(const Dom& d, bool is_or, const std::vector<const Dom*>& disproven,
                         Hand& allow_out, Hand& need_out) const {
        int allow[KINDS], need[KINDS];
        for (int i = 0; i < KINDS; ++i) { allow[i] = MANY; need[i] = 0; }
        if (is_or && disproven.empty()) {
            for (int i = 0; i < KINDS; ++i) allow[i] = d.att.n[i] ? MANY : 0;
        } else {
            for (const Dom* c : disproven) {
                const Entry* cover = disproof_covering(*c);
                if (!cover) return false;
                Hand ca = hand_of(cover->att()), cd = hand_of(cover->s.dfn);
                for (int i = 0; i < KINDS; ++i) {
                    allow[i] = std::min(allow[i], back(ca.n[i], d.att.n[i], c->att.n[i]));
                    need[i] = std::max({need[i], back(cd.n[i], d.dfn.n[i], c->dfn.n[i]), 0});
                }
            }
            if (is_or)  // the attacker may not gain a kind it does not hold: a new check
                for (int i = 0; i < KINDS; ++i) if (!d.att.n[i]) allow[i] = 0;
        }
        for (int i = 0; i < KINDS; ++i)
            if (allow[i] < d.att.n[i] || need[i] > d.dfn.n[i]) return false;
        for (int i = 0; i < KINDS; ++i) {
            allow_out.n[i] = (uint8_t)std::min(allow[i], MANY);
            need_out.n[i] = (uint8_t)need[i];
        }
        return true;
    }

    void store_proof(const Dom& d, bool is_or, const std::vector<const Dom*>& proven) {
        Hand att = d.att, dfn = d.dfn;
        proof_pieces(d, is_or, proven, att, dfn);  // unchanged when there are none
        int dist = 0;
        for (const Dom* c : proven)
            if (const Entry* e = proof_covering(*c)) dist = std::max(dist, e->s.dist + 1);
        if (seq >= INT32_MAX) throw Aborted{"2^31 proofs, more than the table numbers", false};
        forget_unsolved(d);
        table.insert(BoardTable::solved(BoardTable::PROOF, d.board, att, dfn, (int32_t)++seq, dist));
        ++n_proofs;
    }

    void store_disproof(uint64_t key, const Dom& d, uint64_t path, bool dep, bool is_or,
                        const std::vector<const Dom*>& disproven, bool pieces) {
        if (dep) {
            if (twins.size() >= twin_limit) {  // path-bound results: a cache
                twins.clear();
                table.touch_all();
            }
            twins.insert(key, path);
            table.touch(d.board);  // (a child's lookup reads the twins too)
            return;
        }
        Hand att = d.att, dfn = d.dfn;
        if (pieces) disproof_pieces(d, is_or, disproven, att, dfn);
        if (n_disproofs >= INT32_MAX) throw Aborted{"2^31 disproofs, more than the table numbers", false};
        forget_unsolved(d);
        table.insert(BoardTable::solved(BoardTable::DISPROOF, d.board, att, dfn, (int32_t)++n_disproofs));
    }

    // a position proven, or disproven whatever the path, leaves the unsolved numbers
    // (TsumeTables._unlist)
    void forget_unsolved(const Dom& d) {
        if (Entry* e = table.find_unsolved(d.board, hand_bits(d.att))) table.erase(e);
    }

    // the position key (Position::key: the board's and the hands' keys) of the unsolved
    // entry with attacker's hand `att` on the board of `d` (the defender holding the rest)
    uint64_t key_of(const Dom& d, uint64_t att) const {
        Hand a = hand_of(att);
        uint64_t hkey = 0;
        for (int i = 0; i < KINDS; ++i) {
            uint64_t dfn = (uint64_t)(d.att.n[i] + d.dfn.n[i] - a.n[i]);
            hkey += T->zh[attacker][i + 1] * a.n[i] + T->zh[attacker ^ 1][i + 1] * dfn;
        }
        return d.board ^ hkey;
    }

    // -- the search -------------------------------------------------------------------------
    // (the node `depth` plies from the root, reached by `path`)
    // the lists of a node, kept per distance from the root and reused: their allocations
    // were a twentieth of the search's time
    struct Frame {
        std::vector<int> moves;
        std::vector<Child> children;
    };
    std::vector<std::unique_ptr<Frame>> frames;
    Frame& frame(int depth) {
        while ((int)frames.size() <= depth) frames.emplace_back(new Frame);
        return *frames[depth];
    }

    // the node's moves (key, here: its position): when `look` (an OR node entered again),
    // the list kept if there is one (true), else a list made, each child's table line
    // fetched as it is listed
    template <bool is_or>
    bool listing(bool look, uint64_t key, const Dom& here, std::vector<int>& moves) {
        if (look && move_lists.find(key, here, moves)) return true;
        table.listing_fetches(pos);
        if (is_or) pos.checks(moves); else pos.legal_moves(moves);
        pos.fetch_lines = nullptr;
        return false;
    }
    // whether child c of a node `depth` plies from the root was first reached nearer the
    // root (its unsolved entry's least distance, read by its lookup): a DAG merge, whose
    // numbers the node counts once, with max (TsumeSearch's dag)
    bool merges(const Child& c, int depth) const { return dag && c.seen >= 0 && c.seen < depth + 1; }

    // (`is_or`: the attacker to move; a node's children are of the other kind, so each
    // kind's node loop is compiled without the other's tests)
    // (`again`: its parent read its unsolved entry, so it was entered before: only such a
    // node looks for a kept list)
    template <bool is_or>
    void mid(uint64_t path, int depth, int64_t th_pn, int64_t th_dn, int64_t& out_pn,
             int64_t& out_dn, bool& out_dep, bool again = false) {
        count_node();
        uint64_t key = pos.key();
        // the node's own entries, stored into after its children are looked up
        table.prefetch(pos.bkey);
        Dom here = dom();
        Frame& f = frame(depth);
        std::vector<int>& moves = f.moves;
        bool kept = listing<is_or>(is_or && again, key, here, moves);
        out_dep = false;
        if (moves.empty()) {  // OR: no check, no mate; AND: no reply, mate
            std::vector<const Dom*> none;
            if (is_or) {
                store_disproof(key, here, path, false, true, none, true);
                out_pn = INF; out_dn = 0;
            } else {
                store_proof(here, false, none);
                out_pn = 0; out_dn = INF;
            }
            return;
        }
        size_t n = moves.size();
        std::vector<Child>& children = f.children;
        children.resize(n);
        // the lists' arrays as locals: a byte stored to the board could alias a vector's
        // own pointers for the compiler, which would read them again after each
        // (neither list is resized while the node lives)
        Child* const kids = children.data();
        const int* const listed = moves.data();
        for (size_t i = 0; i < n; ++i) {  // the keys first, their boards' entries fetched
            Child& c = kids[i];
            c.key = key_after(listed[i], here, c.dom);
            c.hash = BoardTable::hash(c.dom.board);
            table.prefetch_hashed(c.hash);
            if (is_or && mobility) reply_counts.prefetch(c.key);
            // (fetched long before the child is entered: fetched only as it was entered, the
            // slot stalled the search more than the kept lists saved)
            if (!is_or) move_lists.prefetch(c.key);
        }
        uint64_t own_path = path_step(path, key);
        // each child looked up once here: what the tables hold for it, else its starting
        // numbers; nothing is stored between this and the first round below (a mate stored
        // here is on its own board), so that round reads these numbers without a lookup
        for (size_t i = 0; i < n; ++i) {
            Child& c = kids[i];
            c.repeated = on_path.contains(c.key);
            c.pn = 1; c.dn = 1; c.dep = false; c.seen = -1; c.group = -1;
            int64_t cpn, cdn;
            bool dep, board_held = true;
            if (lookup(c, own_path, cpn, cdn, dep, c.seen, &board_held)) {
                c.pn = cpn; c.dn = cdn; c.dep = dep;
            } else {
                if (is_or && mobility) {
                    // a check starts with as many proof-number units as it has replies;
                    // one without reply is mate, proven at once
                    int replies = reply_counts.find(c.key);
                    if (replies < 0) {
                        int captured = pos.play(listed[i]);
                        replies = group_interpositions ? pos.interposition_grouped_count()
                                  : group_drops ? pos.reply_count_after_check(listed[i])
                                                : pos.grouped_reply_count(false);
                        pos.unplay(listed[i], captured);
                        reply_counts.put(c.key, replies);
                    }
                    if (replies) c.pn = replies;
                    else { store_proof(c.dom, false, {}); c.pn = 0; c.dn = INF; }
                }
                // (a board the lookup found no entry of has none to inherit from)
                if (inherit && c.pn && board_held) inherited(c.dom, c.hash, c.pn, c.dn);
            }
            c.shared = merges(c, depth);
            if (is_or) continue;
            int m = listed[i];
            if (group_interpositions) {  // one group: neither a capture nor a king move
                if (!pos.board[move_to(m)] && move_from(m) != pos.kings[pos.turn]) c.group = 0;
            } else if (group_drops && is_drop(m)) {
                c.group = move_to(m);
            }
        }
        bool looked_up = true;  // the children's numbers are fresh from the tables
        // the write after which they were last read: a child whose board has not been
        // written since (nor the twins at its key) would read the same, and is not looked
        // up again; the child last searched always is (its numbers came back from it)
        uint64_t looked_at = table.writes;
        int searched = -1;
        BoardTable::OwnSlot own_slot;
        on_path.insert(key);
        int64_t nodes_before = nodes;
        try {
            for (;;) {
                // the children's numbers, the node's, and the most promising child
                int best_i = -1;
                int64_t best = INF + 1, second = INF + 1, total = 0, shared_max = 0;
                bool infinite = false, any_dep = false, all_dep = true;
                int64_t group_max[N];
                Bits group_used;  // (a set: clearing an array of N flags each round cost 1 %)
                int used_groups[N], n_groups = 0;
                // the children's entries are fetched from memory together, not one
                // cache miss after another (the lookups were a third of this function)
                for (size_t i = 0; i < n && !looked_up; ++i) {
                    Child& c = kids[i];
                    // (a repetition's numbers are fixed)
                    c.stale = !(c.pn == 0 || (c.dn == 0 && !c.dep) || c.repeated) &&
                              ((int)i == searched || table.written_since(c.dom.board, looked_at));
                    if (!c.stale) continue;
                    table.prefetch_hashed(c.hash);
                    if (!twins.empty()) twins.prefetch(c.key, own_path);
                }
                for (size_t i = 0; i < n; ++i) {
                    Child& c = kids[i];
                    int64_t cpn, cdn;
                    bool dep;
                    // a proof or a path-independent disproof is never taken back: a child
                    // known to have one is not looked up again
                    if (!looked_up && c.stale) {
                        c.seen = -1;
                        if (lookup(c, own_path, cpn, cdn, dep, c.seen)) {
                            c.pn = cpn; c.dn = cdn; c.dep = dep;
                        }
                        c.shared = merges(c, depth);
                    }
                    int64_t small = is_or ? c.pn : c.dn, large = is_or ? c.dn : c.pn;
                    if (small < best) { best_i = (int)i; second = best; best = small; }
                    else if (small < second) second = small;
                    if (c.dn == 0) { any_dep = any_dep || c.dep; all_dep = all_dep && c.dep; }
                    if (large == 0) continue;
                    if (large >= INF) infinite = true;
                    int g = is_or ? -1 : c.group;  // (an OR node's children have none)
                    if (g < 0) {
                        // a child first reached nearer the root is shared with another
                        // path (a DAG merge): counted once, with max (TsumeSearch's dag)
                        if (c.shared && large < INF)
                            shared_max = std::max(shared_max, large);
                        else
                            total += large;
                    } else if (!group_used.has(g)) {
                        group_used.set(g);
                        group_max[g] = large;
                        used_groups[n_groups++] = g;
                    } else {
                        group_max[g] = std::max(group_max[g], large);
                    }
                }
                looked_up = false;
                looked_at = table.writes;
                for (int j = 0; j < n_groups; ++j) total += group_max[used_groups[j]];
                total = capped_sum(total + shared_max, infinite);
                int64_t pn = is_or ? best : total, dn = is_or ? total : best;
                bool dep = dn == 0 && (is_or ? any_dep : all_dep);
                if (pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn) {
                    if (is_or && pn && dn && !kept) move_lists.put(key, here, moves);  // (unsolved)
                    store_result(key, here, is_or, path, depth, pn, dn, dep, children,
                                 best_i, nodes - nodes_before + 1, &own_slot);
                    on_path.erase(key);
                    out_pn = pn; out_dn = dn; out_dep = dep;
                    return;
                }
                table.put(here.board, hand_bits(here.att), pn, dn, 0, depth, &own_slot);
                Child& c = kids[best_i];
                int64_t c_th_pn, c_th_dn;
                child_thresholds(is_or, th_pn, th_dn, pn, dn, c.pn, c.dn, second, c_th_pn, c_th_dn);
                searched = best_i;
                pos.push(listed[best_i]);
                try {
                    mid<!is_or>(own_path, depth + 1, c_th_pn, c_th_dn, c.pn, c.dn, c.dep,
                                c.seen >= 0);
                } catch (...) {
                    pos.pop();
                    throw;
                }
                pos.pop();
            }
        } catch (...) {
            on_path.erase(key);
            throw;
        }
    }

    void store_result(uint64_t key, const Dom& here, bool is_or, uint64_t path, int depth,
                      int64_t pn, int64_t dn, bool dep, const std::vector<Child>& children,
                      int best_i, int64_t work, BoardTable::OwnSlot* own_slot) {
        std::vector<const Dom*> used;
        if (pn == 0) {
            if (is_or) used.push_back(&children[best_i].dom);
            else for (const Child& c : children) used.push_back(&c.dom);
            store_proof(here, is_or, used);
        } else if (dn == 0) {
            bool pieces = false;
            if (!dep) {
                // an OR node through every check, an AND node through one reply disproven
                // whatever the path
                if (is_or) for (const Child& c : children) used.push_back(&c.dom);
                else
                    for (const Child& c : children)
                        if (c.dn == 0 && !c.dep) { used.push_back(&c.dom); break; }
                pieces = !used.empty();
            }
            store_disproof(key, here, path, dep, is_or, used, pieces);
        } else {
            table.put(here.board, hand_bits(here.att), pn, dn, work, depth, own_slot);
        }
    }

    // the current node (reached by `path`) searched with infinite thresholds until it is
    // proven or disproven (TsumeSearch._settle): 1 mate, 0 no mate; throws Aborted at a
    // limit. A position on the path is a repetition: no mate.
    int settle(uint64_t path, int depth) {
        Dom d = dom();
        if (proof_covering(d)) return 1;
        if (disproof_covering(d) || twins.contains(pos.key(), path) ||
            on_path.contains(pos.key()))
            return 0;
        int64_t pn, dn;
        bool dep;
        if (pos.turn == attacker) mid<true>(path, depth, INF, INF, pn, dn, dep);
        else mid<false>(path, depth, INF, INF, pn, dn, dep);
        if (pn == 0 || dn == 0) return pn == 0;
        // with no thresholds only a solved node returns
        throw Aborted{"search returned unsolved", false};
    }

    int solve() {
        start_clock();
        return settle(0, 0);
    }

    // the root's numbers now (the position is the root between calls; during one, the
    // root's entry is read): proven (0, INF), disproven (INF, 0), else its last numbers
    void root_numbers(uint64_t key, const Dom& d, int64_t& pn, int64_t& dn) const {
        pn = dn = 1;
        if (proof_covering(d)) { pn = 0; dn = INF; }
        else if (disproof_covering(d) || twins.contains(key, 0)) { pn = INF; dn = 0; }
        else if (const Entry* e = table.find_unsolved(d.board, hand_bits(d.att))) {
            pn = e->u.pn; dn = e->u.dn;
        }
    }

    // the node reached by playing `line` from the root (TsumeSearch.solve_below): its
    // positions are the path (a repetition of one is a failure), and path-dependent
    // disproofs get the path keys the search from the root gives them; the position is
    // back at the root afterwards, however the search ends
    int solve_below(const std::vector<int>& line) {
        start_clock();
        uint64_t path = 0;
        size_t played = 0;
        auto unwind = [&] {
            for (; played; --played) {
                pos.pop();
                on_path.erase(pos.key());
            }
        };
        try {
            for (int m : line) {
                path = path_step(path, pos.key());
                on_path.insert(pos.key());
                pos.push(m);
                ++played;
            }
            int verdict = settle(path, (int)line.size());
            unwind();
            return verdict;
        } catch (...) {
            unwind();
            throw;
        }
    }

    // a mating line read off the proofs: each step goes to a proven child with a smaller
    // sequence number (so never round a cycle), the attacker to the check with the
    // shortest proof tree, the defender to the reply with the longest (ties: the earlier
    // proof, the later); empty if the tables do not give one
    std::vector<int> line() {
        std::vector<int> out;
        const Entry* here = proof_covering(dom());
        while (here) {
            std::vector<int> moves;
            bool is_or = pos.turn == attacker;
            if (is_or) pos.checks(moves); else pos.legal_moves(moves);
            if (moves.empty()) break;  // an AND node without a reply: mate
            int pick = -1;
            const Entry* next = nullptr;
            for (int m : moves) {
                pos.push(m);
                const Entry* e = proof_covering(dom());
                pos.pop();
                if (!e || e->s.seq >= here->s.seq) {
                    if (!is_or) { pick = -1; next = nullptr; break; }  // an unproven reply
                    continue;
                }
                bool better = !next ||
                    (is_or ? (e->s.dist < next->s.dist ||
                              (e->s.dist == next->s.dist && e->s.seq < next->s.seq))
                           : (e->s.dist > next->s.dist ||
                              (e->s.dist == next->s.dist && e->s.seq > next->s.seq)));
                if (better) {
                    next = e;
                    pick = m;
                }
            }
            if (pick < 0) { out.clear(); break; }
            out.push_back(pick);
            pos.push(pick);
            here = next;
        }
        while (!pos.stack.empty()) pos.pop();
        return out;
    }
};

}  // namespace
