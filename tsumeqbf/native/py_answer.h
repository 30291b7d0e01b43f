// Tsume's walks of the proven part for the answer: the ranking by distance to mate and the
// principal variation (tsumeqbf/dfpn/answer.py's, the same results).

#pragma once

#include "py_ranking.h"
#include "py_tsume.h"

namespace {

// (key, x) pairs sorted, one per key: a node's children, each linked once
template <class X>
void once_each(std::vector<std::pair<uint64_t, X>>& children) {
    std::sort(children.begin(), children.end());
    children.erase(std::unique(children.begin(), children.end(),
                               [](auto& a, auto& b) { return a.first == b.first; }),
                   children.end());
}

// each node's distance to mate from its children's (`edges`: child, parent), level by level
// from the leaves in `buckets` (by distance, `dist` set): an OR node 1 + its nearest child's,
// an AND node 1 + its farthest once all its `waiting` children have theirs
void rank_from_leaves(const std::vector<std::pair<int32_t, int32_t>>& edges,
                      const std::vector<int8_t>& is_or, std::vector<int32_t> waiting,
                      std::map<int64_t, std::vector<int32_t>> buckets, std::vector<int64_t>& dist) {
    size_t n = dist.size();
    std::vector<int32_t> first(n + 1, 0), parents(edges.size());
    for (auto& e : edges) ++first[e.first + 1];
    for (size_t i = 0; i < n; ++i) first[i + 1] += first[i];
    std::vector<int32_t> fill(first.begin(), first.end() - 1);
    for (auto& e : edges) parents[fill[e.first]++] = e.second;
    while (!buckets.empty()) {
        int64_t d = buckets.begin()->first;
        std::vector<int32_t> here = std::move(buckets.begin()->second);
        buckets.erase(buckets.begin());
        for (int32_t c : here)
            for (int32_t k = first[c]; k < first[c + 1]; ++k) {
                int32_t q = parents[k];
                if (dist[q] >= 0) continue;
                if (!is_or[q] && --waiting[q]) continue;
                dist[q] = d + 1;
                buckets[d + 1].push_back(q);
            }
    }
}

// the moves at p (the attacker's checks, or every reply), each child's table line and,
// with `ranked`, its ranking slot fetched as they are listed: the walks look every child
// up at once, and waited on memory for each (the ranking's slot was three quarters of
// ValueWalk::value's own time on zukou-099)
void list_fetching(const UnboundedSearch& s, Position& p, int attacker, std::vector<int>& out,
                   const Distances* ranked = nullptr) {
    s.table.listing_fetches(p);
    if (p.turn == attacker) p.checks(out); else p.legal_moves(out);
    p.fetch_lines = nullptr;
    if (ranked) for (int m : out) ranked->prefetch(p.key_after(m));
}

// the depth-first walk of the rankings: from node `start` at q, whose moves to follow are
// `first`, each move played and `enter(q, from, follow)` asked (from: the node it was played
// at): the node entered, its moves to follow in `follow`; SKIP (walked before) or STOP (the
// walk ends: false, q as it was)
constexpr int32_t SKIP = -1, STOP = -2;
template <class Enter>
bool walk_below(Position& q, int32_t start, std::vector<int> first, Enter&& enter) {
    struct Frame { int32_t id; std::vector<int> follow; size_t next = 0; };
    std::vector<Frame> stack;
    stack.push_back(Frame{start, std::move(first)});
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next == top.follow.size()) {
            stack.pop_back();
            if (!stack.empty()) q.pop();
            continue;
        }
        int m = top.follow[top.next++];
        q.push(m);
        std::vector<int> follow;
        int32_t i = enter(q, top.id, follow);
        if (i == SKIP) { q.pop(); continue; }
        if (i == STOP) {
            for (size_t k = 0; k < stack.size(); ++k) q.pop();
            return false;
        }
        stack.push_back(Frame{i, std::move(follow)});
    }
    return true;
}

// rank_proven(game, limit, known): tsumeqbf.dfpn.answer.rank_proven walked here, the same
// ranking (see its docstring): each node of the proven part reachable from the game's
// position gets its distance to mate, every ply counted, by retrograde analysis; the nodes
// of `known` (a Ranking or a dict key -> distance) are leaves at their distance and an OR node follows
// only the checks proven before it. A dict of the nodes ranked (not those of `known`), or
// None past `limit` reachable nodes. (Without `known` the whole part is ProvenGraph's.) In
// Python this walk was nearly all of the search for shorter lines (zukou-049: 15 walks,
// 45M children looked up, 95 CPU s).
struct RankWalk {
    const UnboundedSearch& s;
    int attacker;
    PyObject* known;            // a dict, unless `ranking`
    const Distances* ranking;   // a Ranking's
    std::unordered_map<uint64_t, int32_t> index;
    std::vector<uint64_t> keys;
    std::vector<int8_t> is_or;         // -1: a known leaf
    std::vector<int32_t> waiting;      // an AND node's replies without a distance yet
    std::vector<int64_t> dist;         // -1: none yet
    std::vector<std::pair<int32_t, int32_t>> edges;  // (child, parent)
    std::vector<int32_t> mated;
    size_t visited = 0;

    RankWalk(const UnboundedSearch& s, int attacker, PyObject* known)
        : s(s), attacker(attacker), known(known),
          ranking(is_ranking(known) ? &distances_of(known) : nullptr) {}

    int32_t node(uint64_t key) {
        auto it = index.try_emplace(key, (int32_t)keys.size());
        if (it.second) {
            keys.push_back(key);
            is_or.push_back(0);
            waiting.push_back(-1);
            dist.push_back(-1);
        }
        return it.first->second;
    }

    // 1: in `known` (its distance in d), 0: not, -1: a Python error
    int known_distance(uint64_t key, int64_t& d) {
        if (ranking) return (d = ranking->find(key)) >= 0;
        PyObject* k = PyLong_FromUnsignedLongLong(key);
        if (!k) return -1;
        PyObject* v = PyDict_GetItemWithError(known, k);
        Py_DECREF(k);
        if (!v) return PyErr_Occurred() ? -1 : 0;
        d = PyLong_AsLongLong(v);
        return d == -1 && PyErr_Occurred() ? -1 : 1;
    }

    static constexpr int64_t NONE = NO_PROOF;
    int64_t proof_seq(const Position& p) const { return proof_seq_at(s, p, attacker); }

    // the moves to follow from node `here` at p, its links recorded (as answer._expand);
    // false on a Python error
    bool expand(Position& p, int32_t here, std::vector<int>& follow) {
        std::vector<int> moves;
        bool or_node = p.turn == attacker;
        list_fetching(s, p, attacker, moves, ranking);
        if (moves.empty()) {
            if (!or_node) mated.push_back(here);
            return true;
        }
        int64_t mine = or_node ? proof_seq(p) : NONE;
        std::vector<std::pair<uint64_t, int64_t>> children;  // (key, known distance or -1)
        for (int m : moves) {
            p.push(m);
            uint64_t key = p.key();
            int64_t d;
            int in_known = known_distance(key, d);
            int64_t seq = in_known ? NONE : proof_seq(p);
            p.pop();
            if (in_known < 0) return false;
            if (in_known) {
                children.emplace_back(key, d);
            } else if (seq != NONE && (mine == NONE || seq < mine)) {
                follow.push_back(m);
                children.emplace_back(key, -1);
            } else if (!or_node) {
                follow.clear();
                return true;  // an unproven reply: no links, never ranked
            }
        }
        once_each(children);
        for (auto& c : children) {
            int32_t i = node(c.first);
            if (c.second >= 0) { is_or[i] = -1; dist[i] = c.second; }
            edges.emplace_back(i, here);
        }
        if (!or_node) waiting[here] = (int32_t)children.size();
        return true;
    }

    // 1 ranked, 0 past the limit, -1 a Python error
    int walk(Position& p, long long limit) {
        int32_t root = node(p.key());
        is_or[root] = p.turn == attacker;
        waiting[root] = 0;
        visited = 1;
        std::vector<int> first;
        if (!expand(p, root, first)) return -1;
        bool failed = false;  // a Python error
        bool done = walk_below(p, root, std::move(first),
                               [&](Position& q, int32_t, std::vector<int>& follow) {
            int32_t i = node(q.key());
            if (visited_at(i)) return SKIP;
            if ((long long)visited >= limit) return STOP;
            ++visited;
            is_or[i] = q.turn == attacker;
            waiting[i] = 0;  // visited (an AND node's count is set by expand)
            if (!expand(q, i, follow)) { failed = true; return STOP; }
            return i;
        });
        return failed ? -1 : done ? 1 : 0;
    }
    bool visited_at(int32_t i) const { return waiting[i] != -1; }

    // the distances, in non-decreasing order from the mated and the known leaves
    void distances() {
        std::map<int64_t, std::vector<int32_t>> buckets;
        buckets[0] = mated;
        for (int32_t i : mated) dist[i] = 0;
        for (size_t i = 0; i < keys.size(); ++i)
            if (is_or[i] == -1) buckets[dist[i]].push_back((int32_t)i);
        rank_from_leaves(edges, is_or, waiting, std::move(buckets), dist);
    }
};

// The proven part rank_proven walks without `known`, kept between calls with the same root
// and limit: proofs are never taken back, so the links it follows (an OR node's proven
// checks, every reply of an AND node whose replies are all proven) are only ever added
// to, and each link left out waits in `open` (an OR node's unproven check, an AND node's
// first unproven reply). A call walks on from those proven since, not the whole part
// again: the shortening ranks the whole part after every round while it fits the limit
// (musou-009: 13 walks of up to 440,522 positions, four fifths of its time).
struct ProvenGraph {
    uint64_t root_key;
    long long limit;
    int64_t proofs = -1;  // the search's n_proofs when last brought up to date
    bool over = false;    // more than `limit` positions reachable
    Position root;
    std::unordered_map<uint64_t, int32_t> index;
    std::vector<uint64_t> keys;
    std::vector<int8_t> is_or, visited;
    std::vector<int32_t> replies;  // an AND node's linked replies (0: none linked)
    std::vector<int32_t> up;       // the node it was first reached from (-1: the root)
    std::vector<int> by;           // and the move
    std::vector<std::pair<int32_t, int32_t>> edges;  // (child, parent)
    std::vector<int32_t> mated;
    struct Open { int32_t node; int move; Dom dom; };
    std::vector<Open> open;
    std::vector<int64_t> dist;

    ProvenGraph(const Position& from, long long limit) : root_key(from.key()), limit(limit), root(from) {}

    int32_t node(uint64_t key) {
        auto it = index.try_emplace(key, (int32_t)keys.size());
        if (it.second) {
            keys.push_back(key);
            is_or.push_back(0);
            visited.push_back(0);
            replies.push_back(0);
            up.push_back(-1);
            by.push_back(0);
        }
        return it.first->second;
    }

    // node i's position
    Position position_of(int32_t i) const {
        std::vector<int> path;
        for (; up[i] >= 0; i = up[i]) path.push_back(by[i]);
        Position q = root;
        for (auto m = path.rbegin(); m != path.rend(); ++m) q.push(*m);
        return q;
    }

    // node `here` at q linked to what is proven below it (RankWalk::expand without
    // `known`), the moves to its new children in `follow`
    void expand(const UnboundedSearch& s, int attacker, Position& q, int32_t here,
                std::vector<int>& follow) {
        std::vector<int> moves;
        bool or_node = q.turn == attacker;
        list_fetching(s, q, attacker, moves);
        if (moves.empty()) {
            if (!or_node) mated.push_back(here);
            return;
        }
        std::vector<std::pair<uint64_t, int>> children;  // (key, move)
        for (int m : moves) {
            q.push(m);
            uint64_t key = q.key();
            Dom d = dominance_of(q, attacker);
            bool proven = s.proof_covering(d) != nullptr;
            q.pop();
            if (proven) {
                children.emplace_back(key, m);
            } else {
                open.push_back(Open{here, m, d});
                if (!or_node) return;  // an unproven reply: no links yet
            }
        }
        once_each(children);
        for (auto& c : children) {
            int32_t i = node(c.first);
            edges.emplace_back(i, here);
            if (!visited[i]) follow.push_back(c.second);
        }
        if (!or_node) replies[here] = (int32_t)children.size();
    }

    // the new nodes below node `from` (at q) after the moves `first`, walked; false past the
    // limit (`count`: the nodes visited)
    bool grow(const UnboundedSearch& s, int attacker, Position& q, int32_t from,
              std::vector<int> first, size_t& count) {
        return walk_below(q, from, std::move(first),
                          [&](Position& at, int32_t up_from, std::vector<int>& follow) {
            int32_t i = node(at.key());
            if (visited[i]) return SKIP;
            if ((long long)count >= limit) return STOP;
            ++count;
            visited[i] = 1;
            is_or[i] = at.turn == attacker;
            up[i] = up_from;
            by[i] = at.stack.back().move;
            expand(s, attacker, at, i, follow);
            return i;
        });
    }

    // the graph brought up to date with the search's proofs; false past the limit
    bool update(const UnboundedSearch& s, int attacker) {
        if (over) return false;
        if (proofs == s.n_proofs) return true;
        bool fresh = proofs < 0;
        proofs = s.n_proofs;
        dist.clear();
        if (fresh) {
            int32_t r = node(root_key);
            visited[r] = 1;
            is_or[r] = root.turn == attacker;
            size_t count = 1;
            Position q = root;
            std::vector<int> first;
            expand(s, attacker, q, r, first);
            return grow(s, attacker, q, r, std::move(first), count) || !(over = true);
        }
        size_t count = 0;
        for (int8_t v : visited) count += v;
        std::vector<Open> was;
        was.swap(open);
        constexpr size_t AHEAD = 8;  // (their table lines fetched ahead: the scan waits on memory)
        for (size_t k = 0; k < was.size(); ++k) {
            if (k + AHEAD < was.size()) s.table.prefetch(was[k + AHEAD].dom.board);
            const Open& e = was[k];
            if (!s.proof_covering(e.dom)) { open.push_back(e); continue; }
            Position q = position_of(e.node);
            std::vector<int> first;
            if (is_or[e.node]) {  // the check proven: linked
                q.push(e.move);
                edges.emplace_back(node(q.key()), e.node);
                q.pop();
                first.push_back(e.move);
            } else {  // its first unproven reply proven: all linked, or the next one waits
                expand(s, attacker, q, e.node, first);
            }
            if (!grow(s, attacker, q, e.node, std::move(first), count)) return !(over = true);
        }
        return true;
    }

    // RankWalk::distances on the graph
    const std::vector<int64_t>& distances() {
        if (!dist.empty()) return dist;
        dist.assign(keys.size(), -1);
        for (int32_t i : mated) dist[i] = 0;
        rank_from_leaves(edges, is_or, replies, {{0, mated}}, dist);
        return dist;
    }
};

// rank_proven(game, limit) on the search's kept ProvenGraph (made again for another root
// or limit), a Ranking
PyObject* ranked_whole(TsumeObject* self, GameObject* g, long long limit) {
    UnboundedSearch& s = *self->search;
    auto graph = std::static_pointer_cast<ProvenGraph>(s.ranking);
    if (!graph || graph->root_key != g->pos->key() || graph->limit != limit) {
        graph = std::make_shared<ProvenGraph>(*g->pos, limit);
        s.ranking = graph;
    }
    if (!graph->update(s, g->attacker)) {
        // past the limit it stays past it (the part only grows): kept without its nodes
        auto past = std::make_shared<ProvenGraph>(*g->pos, limit);
        past->over = true;
        s.ranking = past;
        Py_RETURN_NONE;
    }
    const std::vector<int64_t>& dist = graph->distances();
    PyObject* out = new_ranking();
    if (!out) return nullptr;
    Distances& t = *((RankingObject*)out)->table;
    try {
        for (size_t i = 0; i < dist.size(); ++i)
            if (dist[i] >= 0) t.set(graph->keys[i], dist[i]);
    } catch (const std::bad_alloc&) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

PyObject* tsume_rank_proven(TsumeObject* self, PyObject* args) {
    PyObject *game, *known = Py_None;
    long long limit;
    if (!PyArg_ParseTuple(args, "O!L|O", &GAME_TYPE, &game, &limit, &known)) return nullptr;
    if (!ranking_or_none(known, "known") || !idle(self)) return nullptr;
    GameObject* g = (GameObject*)game;
    if (known == Py_None) return ranked_whole(self, g, limit);
    RankWalk w(*self->search, g->attacker, known);
    Position p = *g->pos;
    int64_t d;
    int root_known = w.known_distance(p.key(), d);
    if (root_known < 0) return nullptr;
    if (root_known) return PyDict_New();
    int done = w.walk(p, limit);
    if (done < 0) return nullptr;
    if (done == 0) Py_RETURN_NONE;
    w.distances();
    PyObject* out = PyDict_New();
    if (!out) return nullptr;
    for (size_t i = 0; i < w.keys.size(); ++i) {
        if (w.is_or[i] == -1 || w.dist[i] < 0) continue;
        PyObject* k = PyLong_FromUnsignedLongLong(w.keys[i]);
        PyObject* v = PyLong_FromLongLong(w.dist[i]);
        int bad = !k || !v || PyDict_SetItem(out, k, v) < 0;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (bad) { Py_DECREF(out); return nullptr; }
    }
    return out;
}

// principal_variation(game, muda=True, rank=None): tsumeqbf.dfpn.answer.principal_variation
// read here, the same line (see answer._value and its helpers, whose order of work this
// keeps, the memo's entries dropped on a cycle or a missing proof included, so values
// depend on it as they do there): each proven node's (length, attacker's pieces left, best
// move), the children ordered by `rank` (a Ranking or a dict key -> distance) or, without it, by the
// proofs' sequence numbers. In Python this walk was most of the search for shorter lines
// once the ranking was walked here (zukou-001: 16 walks of about 3 CPU s each).
struct ValueWalk {
    struct OnStack {};
    struct Missing { const char* why; };  // answer.AnswerError
    struct PyFailed {};                   // a Python exception is set
    struct Val { int32_t length, left, best; bool on_stack; };

    const UnboundedSearch& s;
    int attacker;
    Position p;
    // the values by key, open-addressed (a node chain of std::unordered_map was the walk's
    // own largest cost): linear probing, an entry taken out by shifting back the run after it
    struct Memo {
        struct Slot { uint64_t key; Val v; bool used; };
        std::vector<Slot> slots = std::vector<Slot>(1024);
        size_t n = 0;
        size_t mask() const { return slots.size() - 1; }
        Val* find(uint64_t key) {
            for (size_t i = mix(key) & mask(); slots[i].used; i = (i + 1) & mask())
                if (slots[i].key == key) return &slots[i].v;
            return nullptr;
        }
        void set(uint64_t key, const Val& v) {
            if (Val* at = find(key)) { *at = v; return; }
            if (2 * (n + 1) > slots.size()) {
                std::vector<Slot> old(2 * slots.size());
                old.swap(slots);
                n = 0;
                for (const Slot& e : old)
                    if (e.used) set(e.key, e.v);
            }
            size_t i = mix(key) & mask();
            while (slots[i].used) i = (i + 1) & mask();
            slots[i] = Slot{key, v, true};
            ++n;
        }
        void erase(uint64_t key) {
            size_t i = mix(key) & mask();
            while (slots[i].used && slots[i].key != key) i = (i + 1) & mask();
            if (!slots[i].used) return;
            slots[i].used = false;
            --n;
            // the entries after it, up to a free slot, moved back where a lookup finds them
            for (size_t j = (i + 1) & mask(); slots[j].used; j = (j + 1) & mask()) {
                size_t home = mix(slots[j].key) & mask();
                // (j's entry stays unless its home lies cyclically outside (i, j])
                bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
                if (stays) continue;
                slots[i] = slots[j];
                slots[j].used = false;
                i = j;
            }
        }
    };
    Memo memo;
    int depth = 0;

    ValueWalk(const UnboundedSearch& s, int attacker, const Position& from)
        : s(s), attacker(attacker), p(from) {}

    // the ranking's distances (null: none, the proofs' order read): a Ranking's own, or a
    // dict's copied into `copied` (a walk looks each node up once per parent, and the
    // dict's lookups, three cache misses each, were a third of its time)
    const Distances* ranked = nullptr;
    Distances copied;

    // `rank` (a Ranking or a dict) the order; false on a Python error
    bool use_rank(PyObject* rank) {
        if (is_ranking(rank)) {
            ranked = &distances_of(rank);
            return true;
        }
        ranked = &copied;
        return ranking_merge(copied, rank);
    }

    // the current node's place in the order (a seed's proofs have negative sequence
    // numbers), NONE: not proven
    static constexpr int64_t NONE = NO_PROOF;
    int64_t order() {
        if (!ranked) return proof_seq_at(s, p, attacker);
        int64_t d = ranked->find(p.key());
        return d < 0 ? NONE : d;
    }

    int hand_size() const {
        int n = 0;
        for (int k = 1; k < 8; ++k) n += p.hands[attacker][k];
        return n;
    }

    void moves(std::vector<int>& out) {
        if (p.turn == attacker) p.checks(out); else p.legal_moves(out);
    }

    // answer._value: the current node's value, memoised
    Val value(bool muda) {
        uint64_t key = p.key();
        if (const Val* known = memo.find(key)) {
            if (known->on_stack) throw OnStack{};
            return *known;
        }
        if (depth >= 20000) {
            PyErr_SetString(PyExc_RecursionError, "the proof's lines are too deep to read");
            throw PyFailed{};
        }
        memo.set(key, Val{0, 0, -1, true});
        ++depth;
        try {
            Val v = value_here(muda);
            --depth;
            memo.set(key, v);
            return v;
        } catch (...) {
            --depth;
            memo.erase(key);
            throw;
        }
    }

    struct Scored { int move; int32_t length, left; };

    // the child after m valued (1 + its length) when it is earlier in the order than `here`
    bool score(int m, int64_t here, bool muda, Scored& out) {
        p.push(m);
        try {
            int64_t below = order();
            bool earlier = below != NONE && below < here;
            if (earlier) {
                Val v = value(muda);
                out = Scored{m, 1 + v.length, v.left};
            }
            p.pop();
            return earlier;
        } catch (...) {
            p.pop();
            throw;
        }
    }

    // answer._value_here
    Val value_here(bool muda) {
        int64_t here = order();
        if (here == NONE) throw Missing{"a node of the proof is not proven in the tables"};
        std::vector<int> ms;
        list_fetching(s, p, attacker, ms, ranked);
        if (ms.empty()) return Val{0, hand_size(), -1, false};
        std::vector<Scored> scored;
        for (int m : ms) {
            Scored sc;
            if (score(m, here, muda, sc)) scored.push_back(sc);
        }
        if (p.turn == attacker) {
            if (scored.empty()) throw Missing{"a proven OR node has no proven check"};
            const Scored* best = &scored[0];
            for (const Scored& sc : scored)
                if (sc.length < best->length || (sc.length == best->length && sc.left < best->left))
                    best = &sc;
            return Val{best->length, best->left, best->move, false};
        }
        if (scored.size() != ms.size())
            throw Missing{"a proven AND node has an unproven reply"};
        if (muda) scored = counted(scored);
        if (scored.empty()) return Val{0, hand_size(), -1, false};
        const Scored* best = &scored[0];
        for (const Scored& sc : scored)
            if (sc.length > best->length || (sc.length == best->length && sc.left < best->left))
                best = &sc;
        return Val{best->length, best->left, best->move, false};
    }

    // answer._without_useless_interpositions: the replies that count, the others first
    std::vector<Scored> counted(const std::vector<Scored>& scored) {
        std::vector<Scored> kept, inter;
        for (const Scored& sc : scored)
            (interposes(p, attacker, sc.move) ? inter : kept).push_back(sc);
        if (inter.empty()) return scored;
        // an interposition next to the king always counts: a far one is measured against it too
        std::vector<char> near;
        int32_t base = 0;
        for (const Scored& sc : kept) base = std::max(base, sc.length);
        for (const Scored& sc : inter) {
            near.push_back(touches_king(p, attacker, move_to(sc.move)));
            if (near.back()) base = std::max(base, sc.length);
        }
        for (size_t i = 0; i < inter.size(); ++i) {
            const Scored& sc = inter[i];
            if (near[i]) { kept.push_back(sc); continue; }
            int32_t onto = capture_length(sc.move);
            if (onto < 0 || onto > base + 2) kept.push_back(sc);
        }
        return kept;
    }

    // answer._capture_length: plies to mate after interposition m when the attacker
    // first captures the piece (-1: no proven capture), whatever the order
    int32_t capture_length(int m) {
        int to = move_to(m);
        int32_t best = -1;
        p.push(m);
        std::vector<int> cs;
        moves(cs);
        for (int c : cs) {
            if (move_to(c) != to) continue;
            p.push(c);
            try {
                if (order() != NONE) {
                    int32_t length = 2 + value(true).length;
                    if (best < 0 || length < best) best = length;
                }
            } catch (const OnStack&) {
            } catch (const Missing&) {
            } catch (...) {
                p.pop();
                p.pop();
                throw;
            }
            p.pop();
        }
        p.pop();
        return best;
    }

    // the line along the best moves from the start
    std::vector<int> line() {
        std::vector<int> out;
        Position q = p;
        while (true) {
            const Val* v = memo.find(q.key());
            if (!v || v->best < 0) break;
            out.push_back(v->best);
            q.push(v->best);
        }
        return out;
    }
};

PyObject* tsume_principal_variation(TsumeObject* self, PyObject* args) {
    PyObject *game, *rank = Py_None;
    int muda = 1;
    if (!PyArg_ParseTuple(args, "O!|pO", &GAME_TYPE, &game, &muda, &rank)) return nullptr;
    if (!ranking_or_none(rank, "rank") || !idle(self)) return nullptr;
    GameObject* g = (GameObject*)game;
    ValueWalk w(*self->search, g->attacker, *g->pos);
    if (rank != Py_None && !w.use_rank(rank)) return nullptr;
    try {
        w.value(muda);
    } catch (const ValueWalk::Missing& e) {
        PyErr_SetString(PyExc_LookupError, e.why);
        return nullptr;
    } catch (const ValueWalk::OnStack&) {
        PyErr_SetString(PyExc_LookupError, "a cycle in the proof's order");
        return nullptr;
    } catch (const ValueWalk::PyFailed&) {
        return nullptr;
    }
    return move_list(w.line());
}

}  // namespace
