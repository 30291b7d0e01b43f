// The standard 9x9 position: make/undo, keys, and the legal moves, checks and reply counts
// the searches ask of it (rules/position.py's Position, spec/RULES.md).

#pragma once

#include "board.h"

namespace {

struct Undo {
    int move, captured;
    uint64_t bkey, hkey;
};

// A position with make/undo and legal move generation, as rules/position.py's Position.
struct Position {
    uint8_t board[N];
    int hands[2][8];
    int turn;
    int kings[2];
    // Zobrist keys kept apart, as Position's: bkey of the board and the side to move
    // (XOR), hkey of the hands (a key added per piece in hand, so counts need no bound)
    uint64_t bkey, hkey;
    Bits occ;  // the occupied squares, kept with board[]
    // the squares of each colour's pieces, and of its pieces in each attack group, kept
    // with board[]: the attack tests ask "which of these pieces stand where they attack
    // s" by a few ANDs
    Bits by_colour[2], groups[2][G_NONE + 1];  // (G_NONE: a slot no test reads)
    std::vector<Undo> stack;
    // when set, the search's table (its 64-byte lines, a count a line, the lines' mask):
    // each move checks() and legal_moves() list has its child's line and count fetched as
    // it is found, while the rest of the list is made (inline here: a call through a
    // pointer for each move cost more than the fetch's own instructions)
    const char* fetch_lines = nullptr;
    const uint8_t* fetch_counts = nullptr;
    size_t fetch_mask = 0;
    void listed(std::vector<int>& out, int m) {
        out.push_back(m);
        if (fetch_lines) {
            size_t b = mix(board_after(m)) & fetch_mask;
            PREFETCH(fetch_lines + 64 * b);
            PREFETCH(fetch_counts + b);
        }
    }
    // the position's key after move m of the side to move, as push() would leave it,
    // without playing it: the board's and the hands'
    uint64_t key_after(int m) const {
        int frm = move_from(m), c = turn;
        uint64_t h = hkey;
        if (frm >= DROP_BASE) h -= T->zh[c][frm - DROP_BASE];
        else if (int captured = board[move_to(m)])
            if (base_kind(captured) != KING) h += T->zh[c][base_kind(captured)];
        return board_after(m) ^ h;
    }
    // the board's key after move m of the side to move, as push() would leave it, without
    // playing it
    uint64_t board_after(int m) const {
        int to = move_to(m), frm = move_from(m);
        uint64_t key = bkey ^ T->zturn;
        if (frm >= DROP_BASE) return key ^ T->zb[code_of(frm - DROP_BASE, turn)][to];
        int code = board[frm], captured = board[to];
        key ^= T->zb[code][frm];
        if (captured) key ^= T->zb[captured][to];
        return key ^ T->zb[is_promotion(m) ? T->promote_code[code] : code][to];
    }

    // (a piece already on s is taken off first)
    // (the tables read into locals first: the stores below could alias them for the
    // compiler, which would read them again after each)
    void place(int s, int code) {
        if (board[s]) lift(s);
        const Bits b = T->square[s];
        int c = color_of(code), g1 = T->group1[code], g2 = T->group2[code];
        board[s] = (uint8_t)code;
        occ |= b;
        by_colour[c] |= b;
        groups[c][g1] |= b;
        groups[c][g2] |= b;
    }
    void lift(int s) {
        int code = board[s];
        const Bits b = T->square[s];
        int c = color_of(code), g1 = T->group1[code], g2 = T->group2[code];
        board[s] = 0;
        occ.remove(b);
        by_colour[c].remove(b);
        groups[c][g1].remove(b);
        groups[c][g2].remove(b);
    }

    // c's piece `code` from frm to `to`, where it becomes `moved`, taking `captured` (0:
    // none) off: lift(frm) and place(to, moved) in fewer steps (the search plays and takes
    // back a move for every node and every reply count)
    void shift(int frm, int to, int code, int moved, int captured) {
        const Bits f = T->square[frm], t = T->square[to];
        int c = color_of(code), g1 = T->group1[code], g2 = T->group2[code];
        int m1 = T->group1[moved], m2 = T->group2[moved];
        board[frm] = 0;
        board[to] = (uint8_t)moved;
        if (captured) {
            int x1 = T->group1[captured], x2 = T->group2[captured];
            occ.remove(f);
            by_colour[c ^ 1].remove(t);
            groups[c ^ 1][x1].remove(t);
            groups[c ^ 1][x2].remove(t);
        } else {
            occ ^= f | t;
        }
        by_colour[c] ^= f | t;
        groups[c][g1].remove(f);
        groups[c][g2].remove(f);
        groups[c][m1] |= t;
        groups[c][m2] |= t;
    }
    // shift() taken back
    void unshift(int frm, int to, int code, int moved, int captured) {
        const Bits f = T->square[frm], t = T->square[to];
        int c = color_of(code), g1 = T->group1[code], g2 = T->group2[code];
        int m1 = T->group1[moved], m2 = T->group2[moved];
        board[frm] = (uint8_t)code;
        board[to] = (uint8_t)captured;
        groups[c][m1].remove(t);
        groups[c][m2].remove(t);
        groups[c][g1] |= f;
        groups[c][g2] |= f;
        by_colour[c] ^= f | t;
        if (captured) {
            int x1 = T->group1[captured], x2 = T->group2[captured];
            occ |= f;
            by_colour[c ^ 1] |= t;
            groups[c ^ 1][x1] |= t;
            groups[c ^ 1][x2] |= t;
        } else {
            occ ^= f | t;
        }
    }

    uint64_t key() const { return bkey ^ hkey; }

    void init(const uint8_t* b, const uint8_t* h, int side) {
        std::memcpy(board, b, N);
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < 8; ++k) hands[c][k] = h[c * 8 + k];
        turn = side;
        kings[0] = kings[1] = -1;
        bkey = side ? T->zturn : 0;
        hkey = 0;
        occ = Bits();
        by_colour[0] = by_colour[1] = Bits();
        for (auto& row : groups) for (Bits& b : row) b = Bits();
        for (int s = 0; s < N; ++s)
            if (board[s]) {
                int code = board[s];
                board[s] = 0;
                place(s, code);
                bkey ^= T->zb[board[s]][s];
                if (kind_of(board[s]) == KING) kings[color_of(board[s])] = s;
            }
        for (int c = 0; c < 2; ++c)
            for (int k = 1; k < 8; ++k) hkey += T->zh[c][k] * (uint64_t)hands[c][k];
        stack.clear();
    }

    static int base_kind(int code) {
        int k = kind_of(code);
        return k < PRO_PAWN ? k : k == HORSE ? BISHOP : k == DRAGON ? ROOK : k - 8;
    }

    // the move on the board, the hands and the kings alone (no keys, no undo record): for
    // the tests that look one move ahead and take it back at once; returns the piece
    // captured (0: none) for unplay()
    int play(int m) {
        int to = move_to(m), frm = move_from(m), c = turn, captured = 0;
        if (frm >= DROP_BASE) {
            int kind = frm - DROP_BASE;
            hands[c][kind] -= 1;
            place(to, code_of(kind, c));
        } else {
            int code = board[frm];
            captured = board[to];
            if (captured) {
                int hk = base_kind(captured);
                if (hk == KING) kings[c ^ 1] = -1;
                else hands[c][hk] += 1;
            }
            shift(frm, to, code, is_promotion(m) ? T->promote_code[code] : code, captured);
            if (kind_of(code) == KING) kings[c] = to;
        }
        turn = c ^ 1;
        return captured;
    }

    void unplay(int m, int captured) {
        int c = turn ^ 1;
        turn = c;
        int to = move_to(m), frm = move_from(m);
        if (frm >= DROP_BASE) {
            hands[c][frm - DROP_BASE] += 1;
            lift(to);
        } else {
            int moved = board[to];
            int code = is_promotion(m) ? code_of(base_kind(moved), c) : moved;
            unshift(frm, to, code, moved, captured);
            if (captured) {
                int hk = base_kind(captured);
                if (hk == KING) kings[c ^ 1] = to;
                else hands[c][hk] -= 1;
            }
            if (kind_of(code) == KING) kings[c] = frm;
        }
    }

    void push(int m) {
        int to = move_to(m), frm = move_from(m), c = turn;
        stack.push_back({m, board[to], bkey, hkey});
        if (frm >= DROP_BASE) {
            int kind = frm - DROP_BASE;
            hkey -= T->zh[c][kind];
            bkey ^= T->zb[code_of(kind, c)][to];
        } else {
            int code = board[frm], captured = board[to];
            bkey ^= T->zb[code][frm];
            if (captured) {
                int hk = base_kind(captured);
                bkey ^= T->zb[captured][to];
                if (hk != KING) hkey += T->zh[c][hk];
            }
            bkey ^= T->zb[is_promotion(m) ? T->promote_code[code] : code][to];
        }
        bkey ^= T->zturn;
        play(m);
    }

    void pop() {
        Undo u = stack.back();
        stack.pop_back();
        unplay(u.move, u.captured);
        bkey = u.bkey;
        hkey = u.hkey;
    }

    // -- attacks ----------------------------------------------------------------------
    // the nearest occupied square from s in direction d, -1 if none
    int nearest(int s, int d) const {
        Bits m = T->ray_bits[s][d] & occ;
        if (m.empty()) return -1;
        return RAY_UP[d] ? lowest(m) : highest(m);
    }

    // the squares from which `by`'s pieces attack s, the sliders' lines not yet tested for
    // being clear: step pieces (a horse, a dragon and a king step to all eight neighbours)
    // in `steps`, sliders in `slides`
    void attack_candidates(int s, int by, Bits& steps, Bits& slides) const {
        const Bits* at = T->attack_from[by][s].set;
        const Bits* of = groups[by];
        steps = (at[G_PAWN] & of[G_PAWN]) | (at[G_KNIGHT] & of[G_KNIGHT]) |
                (at[G_SILVER] & of[G_SILVER]) | (at[G_GOLD] & of[G_GOLD]) |
                (at[G_KING] & of[G_KING]);
        slides = (at[G_ROOK] & of[G_ROOK]) | (at[G_BISHOP] & of[G_BISHOP]) |
                 (at[G_LANCE] & of[G_LANCE]);
    }

    bool attacked(int s, int by) const {
        const Bits* at = T->attack_from[by][s].set;
        const Bits* of = groups[by];
        Bits steps = (at[G_PAWN] & of[G_PAWN]) | (at[G_KNIGHT] & of[G_KNIGHT]) |
                     (at[G_SILVER] & of[G_SILVER]) | (at[G_GOLD] & of[G_GOLD]) |
                     (at[G_KING] & of[G_KING]);
        return !steps.empty() || slid_onto(s, by);
    }

    // whether one of `by`'s sliders attacks s over empty squares
    bool slid_onto(int s, int by) const {
        const Bits* at = T->attack_from[by][s].set;
        const Bits* of = groups[by];
        Bits slides = (at[G_ROOK] & of[G_ROOK]) | (at[G_BISHOP] & of[G_BISHOP]) |
                      (at[G_LANCE] & of[G_LANCE]);
        for (int p = slides.pop_lowest(); p >= 0; p = slides.pop_lowest())
            if (line_clear(s, p)) return true;
        return false;
    }

    // squares of colour `by`'s pieces that attack s, in square order
    int attackers(int s, int by, int* out) const {
        Bits steps, slides;
        attack_candidates(s, by, steps, slides);
        slides.remove(steps);  // a horse or a dragon next to s is listed once
        int n = 0;
        for (int p = steps.pop_lowest(); p >= 0; p = steps.pop_lowest()) out[n++] = p;
        for (int p = slides.pop_lowest(); p >= 0; p = slides.pop_lowest())
            if (line_clear(s, p)) out[n++] = p;
        return n;
    }

    // the same in the order of the directions from s (DX, DY), knights last: the order
    // of evasions, which steers the search
    int attackers_in_order(int s, int by, int* out) const {
        Bits steps, slides;
        attack_candidates(s, by, steps, slides);
        int found[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, n = 0, knights[2], nk = 0;
        for (int p = steps.pop_lowest(); p >= 0; p = steps.pop_lowest()) {
            int d = T->line[s][p];
            if (d >= 0) found[d] = p;
            else knights[nk++] = p;
        }
        for (int p = slides.pop_lowest(); p >= 0; p = slides.pop_lowest())
            if (line_clear(s, p)) found[T->line[s][p]] = p;
        for (int b : found)
            if (b >= 0) out[n++] = b;
        for (int i = 0; i < nk; ++i) out[n++] = knights[i];
        return n;
    }

    // whether the squares between a and b (on a shared line, or none) are empty
    bool line_clear(int a, int b) const { return (T->between_bits[a][b] & occ).empty(); }

    bool in_check(int c) const { return kings[c] >= 0 && attacked(kings[c], c ^ 1); }

    // whether c's piece on frm, on a line from c's king k, is the only piece between k and
    // an opposing slider that attacks along that line (it may then move only along it)
    bool pinned(int frm, int k, int c) const {
        int d = T->line[k][frm];
        if (d < 0 || !line_clear(k, frm)) return false;
        int p = nearest(frm, d);
        return p >= 0 && (T->far_mask[c ^ 1][d] >> board[p] & 1);
    }

    // whether colour c's king is unattacked after `m` (played and undone here)
    // (a board move of colour c; only the board is touched, not the keys or the hands,
    // as Position._safe_after does)
    bool safe_after(int m, int c) {
        int frm = move_from(m), to = move_to(m);
        int code = board[frm], captured = board[to];
        int moved = is_promotion(m) ? T->promote_code[code] : code;
        shift(frm, to, code, moved, captured);
        int k = kind_of(code) == KING ? to : kings[c];
        bool safe = k < 0 || !attacked(k, c ^ 1);
        unshift(frm, to, code, moved, captured);
        return safe;
    }

    // -- pseudo-legal moves -----------------------------------------------------------
    // (frm, to) with its promotion variants, obeying the forced-promotion rule
    static int board_moves(int* out, int frm, int to, int code, int c) {
        int kind = kind_of(code), n = 0;
        if (T->promote_code[code]) {
            if (T->in_zone[c][frm] || T->in_zone[c][to]) out[n++] = to | frm << 7 | 16384;
            if ((kind == PAWN || kind == LANCE) && T->last_rank[c][to]) return n;
            if (kind == KNIGHT && T->last_two[c][to]) return n;
        }
        out[n++] = to | frm << 7;
        return n;
    }

    // the squares c's piece `code` on frm can move to, king safety aside (at most 20)
    int targets(int frm, int code, int c, int* out) const {
        int n = 0;
        for (int t : T->steps[code][frm])
            if (!board[t] || color_of(board[t]) != c) out[n++] = t;
        for (int d : T->slide_dirs[code])
            for (int t : T->ray[frm][d]) {
                int x = board[t];
                if (x) {
                    if (color_of(x) != c) out[n++] = t;
                    break;
                }
                out[n++] = t;
            }
        return n;
    }

    // targets() within `within`, in the same order (a ray that meets none of it skipped)
    int targets_in(int frm, int code, int c, const Bits& within, int* out) const {
        int n = 0;
        for (int t : T->steps[code][frm])
            if (within.has(t) && (!board[t] || color_of(board[t]) != c)) out[n++] = t;
        for (int d : T->slide_dirs[code]) {
            if ((T->ray_bits[frm][d] & within).empty()) continue;
            for (int t : T->ray[frm][d]) {
                int x = board[t];
                if (x) {
                    if (color_of(x) != c && within.has(t)) out[n++] = t;
                    break;
                }
                if (within.has(t)) out[n++] = t;
            }
        }
        return n;
    }

    // dead-square and nifu rules of a drop onto an empty square (not uchifuzume)
    bool drop_allowed(int kind, int to, int c, const bool* pawn_files) const {
        if (kind == PAWN) return !T->last_rank[c][to] && !pawn_files[to % W];
        if (kind == LANCE) return !T->last_rank[c][to];
        if (kind == KNIGHT) return !T->last_two[c][to];
        return true;
    }

    // whether colour c holds a piece to drop; if so, files[x]: file x holds c's unpromoted
    // pawn (nifu)
    bool can_drop(int c, bool* files) const {
        bool any = false;
        for (int kind = PAWN; kind <= ROOK; ++kind) any = any || hands[c][kind] > 0;
        if (!any) return false;
        for (int x = 0; x < W; ++x) files[x] = false;
        if (!hands[c][PAWN]) return true;  // files are asked of pawn drops only
        Bits pawns = groups[c][G_PAWN];
        for (int s = pawns.pop_lowest(); s >= 0; s = pawns.pop_lowest()) files[s % W] = true;
        return true;
    }

    // whether a pawn drop of colour c on `to` checks and leaves the opponent no legal move
    bool is_uchifuzume(int to, int c) {
        int k = kings[c ^ 1];
        if (k < 0) return false;
        const auto& st = T->steps[code_of(PAWN, c)][to];
        if (std::find(st.begin(), st.end(), k) == st.end()) return false;
        int m = to | (DROP_BASE + PAWN) << 7;
        play(m);
        bool stuck = !has_legal_move();
        unplay(m, 0);
        return stuck;
    }

    // every legal move of the side to move
    void legal_moves(std::vector<int>& out) {
        out.clear();
        int c = turn, k = kings[c], checkers[16];
        int nchecks = k >= 0 ? attackers(k, c ^ 1, checkers) : 0;
        if (nchecks) {
            evasions(out, nchecks, checkers[0]);
            return;
        }
        int tg[32], cands[2];
        Bits own = by_colour[c];
        for (int frm = own.pop_lowest(); frm >= 0; frm = own.pop_lowest()) {
            int code = board[frm];
            int nt = targets(frm, code, c, tg);
            // only king moves and moves off a line through the king can expose it
            bool test = kind_of(code) == KING || (k >= 0 && T->line[k][frm] >= 0);
            for (int i = 0; i < nt; ++i) {
                int nc = board_moves(cands, frm, tg[i], code, c);
                for (int j = 0; j < nc; ++j)
                    if (!test || safe_after(cands[j], c)) listed(out, cands[j]);
            }
        }
        Bits empty = occ;
        empty.lo = ~empty.lo;
        empty.hi = ~empty.hi & ((uint64_t(1) << (N - 64)) - 1);
        add_drops(out, c, empty);
    }

    // the legal moves of the side to move, in check by `nchecks` pieces (`checker` the
    // first): king moves, and captures of the only checker or blocks of its line (a piece
    // off every line through the king cannot be pinned, so only those on one are tested)
    void evasions(std::vector<int>& out, int nchecks, int checker) {
        const SqList* blocks =
            evasion_board_moves([this, &out](int m) { listed(out, m); }, nchecks, checker);
        if (!blocks || blocks->empty()) return;
        add_drops(out, turn, T->between_bits[kings[turn]][checker]);
    }

    // the squares the king of the side to move (in check) may move to: the squares next to
    // it that are not its own pieces', less those the attacker's step pieces cover, taken
    // out at once from its pieces near the king, and those its sliders reach with the king
    // off the board (its square no longer blocks a line; what it captures on t does not
    // stand between t and an attacker)
    ALWAYS_INLINE Bits king_escapes() const {
        int c = turn, k = kings[c];
        Bits to = T->step_bits[board[k]][k];
        to.remove(by_colour[c]);
        // (the attacker's step pieces: a rook, a bishop or a lance has no steps)
        const Bits* att = groups[c ^ 1];
        Bits near = (att[G_PAWN] | att[G_KNIGHT] | att[G_SILVER] | att[G_GOLD] | att[G_KING]) &
                    T->near_king[k];
        // (each word on its own: no test of which word a square is in)
        for (uint64_t x = near.lo; x; x &= x - 1) {
            int p = ctz64(x);
            to.remove(T->step_bits[board[p]][p]);
        }
        for (uint64_t x = near.hi; x; x &= x - 1) {
            int p = 64 + ctz64(x);
            to.remove(T->step_bits[board[p]][p]);
        }
        // then the squares the attacker's sliders reach, each slider that could reach a
        // neighbour of the king at all taken along those of its rays that meet the squares
        // left, up to the first piece (as slid_onto(t, c ^ 1) for each t, in fewer steps)
        const Bits* reach = T->slide_near[c ^ 1][k];
        Bits sliders = (att[G_ROOK] & reach[0]) | (att[G_BISHOP] & reach[1]) | (att[G_LANCE] & reach[2]);
        Bits open = occ;  // (the board without the king)
        open.remove(T->square[k]);
        // (the squares past a ray's first piece cut off by arithmetic on the words, not
        // by a table read that would wait for the bit scan)
        for (int p = sliders.pop_lowest(); p >= 0 && !to.empty(); p = sliders.pop_lowest()) {
            unsigned dirs = T->slide_mask[board[p]] & T->toward[p][k];
            for (unsigned up = dirs & UP_DIRS; up; up &= up - 1) {
                Bits ray = T->ray_bits[p][ctz64(up)];
                if ((ray & to).empty()) continue;
                Bits stop = ray & open;  // (the ray's squares growing: its first piece lowest)
                uint64_t l = stop.lo & (0 - stop.lo), h = stop.hi & (0 - stop.hi);
                ray.lo &= l ? (l << 1) - 1 : ~uint64_t(0);
                ray.hi &= l ? 0 : (h << 1) - 1;
                to.remove(ray);
            }
            for (unsigned down = dirs & ~UP_DIRS; down; down &= down - 1) {
                Bits ray = T->ray_bits[p][ctz64(down)];
                if ((ray & to).empty()) continue;
                Bits stop = ray & open;  // (falling: its first piece highest)
                uint64_t h = stop.hi ? uint64_t(1) << msb64(stop.hi) : 0;
                uint64_t l = stop.lo ? uint64_t(1) << msb64(stop.lo) : 0;
                ray.hi &= ~(h - 1) | (h ? 0 : ~uint64_t(0));
                ray.lo &= h ? 0 : ~(l - 1) | (l ? 0 : ~uint64_t(0));
                to.remove(ray);
            }
        }
        return to;
    }

    // emit(m) for every legal board move of the side to move, in check: its king's moves,
    // and the captures of the only checker and the blocks of its line (a piece off every
    // line through the king cannot be pinned, so only those on one are tested); returns
    // the squares between king and checker, nullptr when there is more than one checker
    // (`nchecks` and `checker` as evasions() takes them)
    // (`in_order`: emitted in the order evasions() lists them; a count needs no order)
    template <bool in_order = true, class Emit>
    const SqList* evasion_board_moves(Emit&& emit, int nchecks, int checker) {
        int c = turn, k = kings[c], king = board[k];
        Bits to = king_escapes();
        if (in_order) {
            for (int t : T->steps[king][k])
                if (to.has(t)) emit(t | k << 7);
        } else {
            for (int t = to.pop_lowest(); t >= 0; t = to.pop_lowest()) emit(t | k << 7);
        }
        if (nchecks != 1) return nullptr;
        const auto& blocks = T->between[k][checker];
        int froms[16], cands[2];
        for (size_t b = 0; b <= blocks.size(); ++b) {
            int t = b < blocks.size() ? blocks[b] : checker;
            int nf = in_order ? attackers_in_order(t, c, froms) : attackers(t, c, froms);
            for (int i = 0; i < nf; ++i) {
                int frm = froms[i];
                // a pinned piece leaves its line whether it captures the only checker or
                // blocks it (that line and the checker's meet only at the king), and any
                // other piece that does either leaves the king safe
                if (frm == k || pinned(frm, k, c)) continue;
                int nc = board_moves(cands, frm, t, board[frm], c);
                for (int j = 0; j < nc; ++j) emit(cands[j]);
            }
        }
        return &blocks;
    }

    // legal drops onto the empty squares of `onto`, in square order (in check, the squares
    // between the king and the only checker: a drop never captures the checker, so it is
    // legal exactly when it blocks that line)
    void add_drops(std::vector<int>& out, int c, Bits onto) {
        bool files[W];
        if (!can_drop(c, files)) return;
        for (int to = onto.pop_lowest(); to >= 0; to = onto.pop_lowest()) {
            if (board[to]) continue;
            for (int kind = PAWN; kind <= ROOK; ++kind) {
                if (!hands[c][kind] || !drop_allowed(kind, to, c, files)) continue;
                if (kind == PAWN && is_uchifuzume(to, c)) continue;
                listed(out, to | (DROP_BASE + kind) << 7);
            }
        }
    }

    // (counted as a new check's replies are: in check, without a list)
    bool has_legal_move() { return grouped_reply_count(true) > 0; }

    // legal moves of the side to move that check the opponent's king
    void checks(std::vector<int>& out) {
        out.clear();
        int c = turn, opp = c ^ 1, ek = kings[opp];
        if (ek < 0) return;
        int k = kings[c];
        bool check = k >= 0 && attacked(k, opp);
        int tg[32], cands[2];
        Bits own = by_colour[c];
        for (int frm = own.pop_lowest(); frm >= 0; frm = own.pop_lowest()) {
            int code = board[frm];
            // a move that does not land on a checking square can only check by uncovering
            // a line through its origin
            // (only when a slider of ours stands right behind it on a line from the king)
            bool discover = false;
            int d = T->line[ek][frm];
            if (d >= 0) {
                int t = nearest(frm, d);
                discover = t >= 0 && (T->far_mask[c][d] >> board[t] & 1);
            }
            if (!discover && !T->can_check_bits[ek][code].has(frm)) continue;
            // the squares it or its promoted self would check from (every square when it
            // may uncover a line)
            Bits from = T->check_bits[ek][code] | T->check_bits[ek][T->promote_code[code]];
            int nt = discover ? targets(frm, code, c, tg) : targets_in(frm, code, c, from, tg);
            for (int i = 0; i < nt; ++i) {
                int t = tg[i];
                int nc = board_moves(cands, frm, t, code, c);
                for (int j = 0; j < nc; ++j) {
                    int m = cands[j];
                    int moved = is_promotion(m) ? T->promote_code[code] : code;
                    if (!discover && !T->check_bits[ek][moved].has(t)) continue;
                    // the board alone: a capture of the defender's king is no legal move
                    int captured = board[t];
                    if (captured && kind_of(captured) == KING) continue;
                    if (!discover && k < 0) {
                        // no king of ours to expose and no line to uncover: the moved piece
                        // checks from t over empty squares, its own square then empty
                        Bits between = T->between_bits[ek][t] & occ;
                        between.remove(T->square[frm]);
                        if (between.empty()) listed(out, m);
                        continue;
                    }
                    shift(frm, t, code, moved, captured);
                    int own = kind_of(code) == KING ? t : k;
                    // the defender is not in check at an OR node, so without a line to
                    // uncover only the moved piece can check: from t, over empty squares
                    bool ok = discover ? attacked(ek, c) : line_clear(ek, t);
                    ok = ok && (own < 0 || !attacked(own, opp));
                    unshift(frm, t, code, moved, captured);
                    if (ok) listed(out, m);
                }
            }
        }
        bool files[W];
        if (!can_drop(c, files)) return;
        // the empty squares some piece in hand would check from, in square order
        // (the kinds held listed once, in order, with the squares each checks from)
        Bits squares, from[7];
        int held[7], n_held = 0;
        for (int kind = PAWN; kind <= ROOK; ++kind)
            if (hands[c][kind]) {
                from[n_held] = T->check_bits[ek][code_of(kind, c)];
                squares |= from[n_held];
                held[n_held++] = kind;
            }
        squares.remove(occ);
        for (int to = squares.pop_lowest(); to >= 0; to = squares.pop_lowest()) {
            if (!line_clear(ek, to)) continue;  // (whatever is dropped)
            for (int i = 0; i < n_held; ++i) {
                int kind = held[i], code = code_of(kind, c);
                if (!from[i].has(to)) continue;
                if (!drop_allowed(kind, to, c, files)) continue;
                if (check) {
                    place(to, code);
                    bool safe = !attacked(k, opp);
                    lift(to);
                    if (!safe) continue;
                }
                if (kind == PAWN && is_uchifuzume(to, c)) continue;
                listed(out, to | (DROP_BASE + kind) << 7);
            }
        }
    }

    // the replies of the side to move, drops onto one square counted once when
    // `group_drops`: a new check's starting proof number, counted for every check of every
    // expanded OR node, so in check it is counted as evasions() lists them, without a list
    int grouped_reply_count(bool group_drops) {
        int c = turn, k = kings[c], checkers[16];
        int nchecks = k >= 0 ? attackers(k, c ^ 1, checkers) : 0;
        if (!group_drops || !nchecks) {
            std::vector<int> moves;
            legal_moves(moves);
            if (!group_drops) return (int)moves.size();
            bool seen[N] = {};
            int n = 0;
            for (int m : moves) {
                if (!is_drop(m)) { ++n; continue; }
                if (!seen[move_to(m)]) { seen[move_to(m)] = true; ++n; }
            }
            return n;
        }
        return evasion_count(nchecks, checkers[0]);
    }

    // grouped_reply_count(true) of the side to move, in check by `nchecks` pieces
    // (`checker` the only one when there is one), as evasions() would list them: the
    // king's moves, the moves onto the checker's square and each square between, and the
    // squares between some piece in hand may be dropped on
    int evasion_count(int nchecks, int checker) {
        int n = king_escapes().count();
        if (nchecks != 1) return n;
        int c = turn, k = kings[c];
        // (the squares between as a set: reply_count_after_check() has just read that
        // entry, where the lists of them are a table apart)
        Bits blocks = T->between_bits[k][checker];
        OntoCount onto;
        n += moves_onto(checker, k, onto);
        if (blocks.empty()) return n;
        for (Bits b = blocks; !b.empty();) n += moves_onto(b.pop_lowest(), k, onto);
        return n + drop_squares(blocks, c);
    }

    // what moves_onto() needs of c's pieces for an evasion count, worked out when a piece
    // first attacks a square: those that may promote, the pawns and lances, the knights,
    // and (when a piece on a line from the king first does) the pinned ones
    struct OntoCount {
        Bits promotable, short_range, knights, pinned;
        bool kinds_known = false, pins_known = false;
        void learn_kinds(const Position& pos, int c) {
            const Bits* own = pos.groups[c];
            Bits major = own[G_ROOK] | own[G_BISHOP];
            major.remove(own[G_KING]);  // (a horse or a dragon has promoted)
            short_range = own[G_PAWN] | own[G_LANCE];
            knights = own[G_KNIGHT];
            promotable = short_range | knights | own[G_SILVER] | major;
            kinds_known = true;
        }
    };

    // the number of c's board moves onto t other than its king's (c to move, its king k in
    // check by one piece, t that piece's square or one between): a move for each piece that
    // attacks t and is not pinned (a pinned piece leaves its line whether it captures the
    // checker or blocks it: that line and the checker's meet only at the king; any other
    // piece that does either leaves the king safe), a second for each that may promote
    // there, less the moves without promotion the rules forbid (as board_moves() gives them)
    int moves_onto(int t, int k, OntoCount& onto) const {
        int c = turn;
        Bits steps, slides;
        attack_candidates(t, c, steps, slides);
        slides.remove(steps);  // (a horse or a dragon next to t once)
        for (int p = slides.pop_lowest(); p >= 0; p = slides.pop_lowest())
            if (line_clear(t, p)) steps |= T->square[p];
        steps.remove(T->square[k]);
        if (steps.empty()) return 0;
        if (!(steps & T->on_lines[k]).empty()) {  // (only a piece on a line from k is pinned)
            if (!onto.pins_known) {
                onto.pinned = pinned_pieces(c, k);
                onto.pins_known = true;
            }
            steps.remove(onto.pinned);
        }
        if (!onto.kinds_known) onto.learn_kinds(*this, c);
        Bits promoting = steps & onto.promotable;
        if (!T->in_zone[c][t]) promoting = promoting & T->zone[c];
        int n = steps.count() + promoting.count();
        if (T->last_rank[c][t]) n -= (steps & onto.short_range).count();
        if (T->last_two[c][t]) n -= (steps & onto.knights).count();
        return n;
    }

    // c's pieces pinned to its king k: each the only piece between k and an opposing
    // slider that attacks along that line (pinned() for all of them at once)
    Bits pinned_pieces(int c, int k) const {
        const Bits* at = T->attack_from[c ^ 1][k].set;
        const Bits* of = groups[c ^ 1];
        Bits sliders = (at[G_ROOK] & of[G_ROOK]) | (at[G_BISHOP] & of[G_BISHOP]) |
                       (at[G_LANCE] & of[G_LANCE]);
        Bits pinned;
        for (int p = sliders.pop_lowest(); p >= 0; p = sliders.pop_lowest()) {
            Bits between = T->between_bits[k][p] & occ;
            if (between.count() == 1) pinned |= between & by_colour[c];
        }
        return pinned;
    }

    // the squares of `blocks` (empty: between c's king and the only checker) some piece c
    // holds may be dropped on, each once (a drop there blocks the check): all of them when
    // c holds a silver, a gold, a bishop or a rook, which may be dropped anywhere
    int drop_squares(Bits blocks, int c) {
        const int* h = hands[c];
        if (h[SILVER] | h[GOLD] | h[BISHOP] | h[ROOK]) return blocks.count();
        bool files[W];
        if (!can_drop(c, files)) return 0;  // (nothing held)
        int n = 0;
        for (int t = blocks.pop_lowest(); t >= 0; t = blocks.pop_lowest())
            for (int kind = PAWN; kind <= KNIGHT; ++kind) {
                if (!h[kind] || !drop_allowed(kind, t, c, files)) continue;
                if (kind == PAWN && is_uchifuzume(t, c)) continue;
                ++n;
                break;
            }
        return n;
    }

    // grouped_reply_count(true) after the attacker's check m, just played from a position
    // where the defender (now to move) was not in check: the checkers are the piece m
    // moved and a slider it uncovered on the line from the king through m's origin
    int reply_count_after_check(int m) {
        int k = kings[turn], to = move_to(m), frm = move_from(m), by = turn ^ 1;
        if (k < 0) return grouped_reply_count(true);
        int nchecks = 0, checker = -1;
        if (T->check_bits[k][board[to]].has(to) && line_clear(k, to)) { ++nchecks; checker = to; }
        if (frm < DROP_BASE) {
            int d = T->line[k][frm];
            int p = d >= 0 ? nearest(k, d) : -1;
            // (a slider of the attacker's nearest the king on that line, other than the
            // piece moved, checks from beyond frm: it did not check before the move)
            if (p >= 0 && p != to && (T->far_mask[by][d] >> board[p] & 1)) { ++nchecks; checker = p; }
        }
        if (!nchecks) return grouped_reply_count(true);  // (not a check: counted in full)
        return evasion_count(nchecks, checker);
    }

    // the replies of the side to move, every interposition (a reply that is neither a king
    // move nor a capture: against a check it can only block the line) counted once, as
    // TsumeGame.reply_count counts them with group_interpositions; in check without a list
    int interposition_grouped_count() {
        int c = turn, k = kings[c], checkers[16];
        int nchecks = k >= 0 ? attackers(k, c ^ 1, checkers) : 0;
        int rest = 0;
        bool blocks_any = false;
        auto count = [&](int m) {  // a drop's from is past the squares: never the king's
            if (board[move_to(m)] || move_from(m) == k) ++rest;
            else blocks_any = true;
        };
        if (!nchecks) {
            std::vector<int> moves;
            legal_moves(moves);
            for (int m : moves) count(m);
            return rest + blocks_any;
        }
        const SqList* blocks = evasion_board_moves<false>(count, nchecks, checkers[0]);
        bool files[W];
        if (blocks_any || !blocks || blocks->empty() || !can_drop(c, files))
            return rest + blocks_any;
        for (int t : *blocks)
            for (int kind = PAWN; kind <= ROOK; ++kind) {
                if (!hands[c][kind] || !drop_allowed(kind, t, c, files)) continue;
                if (kind == PAWN && is_uchifuzume(t, c)) continue;
                return rest + 1;
            }
        return rest;
    }
};

}  // namespace
