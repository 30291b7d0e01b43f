// The native core: standard 9x9 shogi move generation and the bounded df-pn search, in C++17
// through the Python C API (no build requirement beyond setuptools and a C++ compiler).
//
// Written from tsumeqbf/rules/position.py, tsumeqbf/dfpn/core.py and spec/RULES.md. It
// speaks the Python side's encodings exactly, so that move lists can be compared one for
// one with the rules engine's:
//   piece code = kind | colour << 4 (sente 0, gote 1; kinds as tsumeqbf/rules/pieces.py);
//   square     = (rank - 1) * 9 + (9 - file), SFEN reading order;
//   move       = to | from << 7 | promote << 14, a drop's "from" being 96 + kind.
// Only the standard board (9 x 9, zone 3) with hands is served; the Python wrapper
// (tsumeqbf/native/__init__.py) refuses anything else before calling in.

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define PREFETCH(address) ((void)0)
#define ALWAYS_INLINE inline
#endif

namespace {

constexpr int W = 9, H = 9, N = 81, ZONE = 3;
constexpr int DROP_BASE = 96;
enum { PAWN = 1, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, KING, PRO_PAWN, PRO_LANCE,
       PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON };
constexpr int BLACK = 0, WHITE = 1;

inline int code_of(int kind, int color) { return kind | color << 4; }
inline int kind_of(int code) { return code & 15; }
inline int color_of(int code) { return code >> 4; }
inline int move_to(int m) { return m & 127; }
inline int move_from(int m) { return (m >> 7) & 127; }
inline bool is_drop(int m) { return move_from(m) >= DROP_BASE; }
inline bool is_promotion(int m) { return (m >> 14) & 1; }

// the eight line directions (dx, dy): x grows towards file 1, y towards rank 9
constexpr int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int DY[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

struct Vec { int dx, dy; };

// movement of sente's pieces (gote's: dy negated)
const std::vector<Vec> GOLD_STEPS = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
const std::vector<Vec> ORTHO = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
const std::vector<Vec> DIAG = {{1, -1}, {1, 1}, {-1, 1}, {-1, -1}};

std::vector<Vec> step_vectors(int kind) {
    switch (kind) {
        case PAWN: return {{0, -1}};
        case KNIGHT: return {{-1, -2}, {1, -2}};
        case SILVER: return {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}};
        case GOLD: case PRO_PAWN: case PRO_LANCE: case PRO_KNIGHT: case PRO_SILVER:
            return GOLD_STEPS;
        case KING: { auto v = ORTHO; v.insert(v.end(), DIAG.begin(), DIAG.end()); return v; }
        case HORSE: return ORTHO;
        case DRAGON: return DIAG;
        default: return {};
    }
}

std::vector<Vec> slide_vectors(int kind) {
    switch (kind) {
        case LANCE: return {{0, -1}};
        case BISHOP: case HORSE: return DIAG;
        case ROOK: case DRAGON: return ORTHO;
        default: return {};
    }
}

int direction_index(int dx, int dy) {
    for (int d = 0; d < 8; ++d)
        if (DX[d] == dx && DY[d] == dy) return d;
    return -1;
}

// a short list of squares (or directions) kept inline: the attack scans walk these in
// every node, and a std::vector's heap block cost them a pointer chase each
struct SqList {
    uint8_t n = 0;
    uint8_t sq[8];
    void push_back(int x) { sq[n++] = (uint8_t)x; }
    template <class It> void assign(It first, It last) { n = 0; for (; first != last; ++first) push_back(*first); }
    const uint8_t* begin() const { return sq; }
    const uint8_t* end() const { return sq + n; }
    size_t size() const { return n; }
    bool empty() const { return n == 0; }
    int operator[](size_t i) const { return sq[i]; }
};

// a set of squares, 0-63 in lo and 64-80 in hi: the occupied squares, so that the nearest
// piece along a ray is one bit scan rather than a walk over empty squares
struct Bits {
    uint64_t lo = 0, hi = 0;
    // (without a branch: the search sets and clears squares in every push and pop)
    void set(int s) { lo |= (uint64_t)(s < 64) << (s & 63); hi |= (uint64_t)(s >= 64) << (s & 63); }
    void clear(int s) { lo &= ~((uint64_t)(s < 64) << (s & 63)); hi &= ~((uint64_t)(s >= 64) << (s & 63)); }
    bool has(int s) const { return ((s < 64 ? lo : hi) >> (s & 63)) & 1; }
    Bits operator&(const Bits& o) const { Bits b; b.lo = lo & o.lo; b.hi = hi & o.hi; return b; }
    Bits operator|(const Bits& o) const { Bits b; b.lo = lo | o.lo; b.hi = hi | o.hi; return b; }
    Bits& operator|=(const Bits& o) { lo |= o.lo; hi |= o.hi; return *this; }
    Bits& operator^=(const Bits& o) { lo ^= o.lo; hi ^= o.hi; return *this; }
    void remove(const Bits& o) { lo &= ~o.lo; hi &= ~o.hi; }
    bool empty() const { return !(lo | hi); }
    // (a loop per square: the sets counted hold a few squares, and the build has no
    // popcount instruction)
    int count() const {
        int n = 0;
        for (uint64_t x = lo; x; x &= x - 1) ++n;
        for (uint64_t x = hi; x; x &= x - 1) ++n;
        return n;
    }
    int pop_lowest();  // the lowest square, taken out; -1 when empty
};

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
inline int ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
inline int msb64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
#else
inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
inline int msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

// the lowest / highest square of a non-empty set
inline int lowest(const Bits& b) { return b.lo ? ctz64(b.lo) : 64 + ctz64(b.hi); }
inline int highest(const Bits& b) { return b.hi ? 64 + msb64(b.hi) : msb64(b.lo); }

inline int Bits::pop_lowest() {
    if (lo) { int s = ctz64(lo); lo &= lo - 1; return s; }
    if (hi) { int s = ctz64(hi); hi &= hi - 1; return 64 + s; }
    return -1;
}

// directions 2-5 (x or y growing, square numbers growing) meet their nearest square
// lowest, the others highest
constexpr bool RAY_UP[8] = {false, false, true, true, true, true, false, false};
constexpr unsigned UP_DIRS = 0x3C;  // RAY_UP as bits
// the square number's step along direction d (DY * 9 + DX)
constexpr int RAY_STEP[8] = {-9, -8, 1, 10, 9, 8, -1, -10};
constexpr bool steps_agree() {
    for (int d = 0; d < 8; ++d)
        if (RAY_STEP[d] != DY[d] * W + DX[d]) return false;
    return true;
}
static_assert(steps_agree(), "RAY_STEP follows DX and DY");

// the attack groups (Tables::attack_from, Position::groups): pieces that attack alike
enum { G_PAWN, G_KNIGHT, G_SILVER, G_GOLD, G_KING, G_ROOK, G_BISHOP, G_LANCE, G_NONE };

inline int at(int x, int y) { return (0 <= x && x < W && 0 <= y && y < H) ? y * W + x : -1; }

struct Tables {
    // steps[code][sq]: step targets on an empty board; slide_dirs[code]: ray directions
    SqList steps[32][N];
    SqList slide_dirs[32];
    // ray[sq][d]: squares from sq outward in direction d
    SqList ray[N][8];
    Bits ray_bits[N][8], between_bits[N][N];
    // near[c][d] / far[c][d]: bit per code of colour c attacking a square from the first /
    // a further square of its ray in direction d
    uint32_t near_mask[2][8] = {}, far_mask[2][8] = {};
    SqList knight_from[2][N];
    // line[a][b]: direction from a to b on a shared line, else -1; between[a][b]
    int line[N][N];
    SqList between[N][N];
    // check_from[code][k]: squares from which `code` attacks k on an empty board
    bool check_from[32][N][N];
    // check_bits[k][code]: check_from[code][k] as a set (the king's square first: a node's
    // tests read one king's block)
    Bits check_bits[N][32];
    // can_check[code][frm][k]: the piece on frm could, on an empty board, move to a square
    // from which it (or its promoted self) attacks k: else only a discovered check is
    // possible for it
    bool can_check[32][N][N];
    Bits can_check_bits[N][32];  // [k][code]: can_check[code][.][k] as a set of squares frm
    // attack_from[c][s].set[g]: squares from which a piece of colour c in attack group g
    // attacks s on an empty board (one block per square, read by every attack test)
    struct AttackFrom { Bits set[8]; };
    AttackFrom attack_from[2][N];
    // the attack groups of each piece code, the second G_NONE when it has one
    uint8_t group1[32], group2[32];
    Bits square[N];  // the set of one square
    // step_bits[code][s]: the squares `code` on s attacks by a step; near_king[k]: the
    // squares from which some step reaches a neighbour of k (two files, three ranks away)
    Bits step_bits[32][N], near_king[N];
    // slide_near[c][k][i]: the squares from which c's sliders of attack group G_ROOK + i
    // attack some neighbour of k on an empty board (a king's escapes are tested only
    // against those sliders)
    Bits slide_near[2][N][3];
    // slide_mask[code]: its ray directions as bits; toward[p][k]: the directions from p
    // whose rays meet a neighbour of k
    uint8_t slide_mask[32] = {}, toward[N][N] = {};
    bool in_zone[2][N], last_rank[2][N], last_two[2][N];
    Bits zone[2];  // in_zone as sets
    Bits on_lines[N];  // the squares on a line (rank, file or diagonal) through s, s aside
    int promote_code[32];
    uint64_t zb[32][N], zh[2][8], zturn;

    Tables() {
        std::memset(check_from, 0, sizeof check_from);
        for (int s = 0; s < N; ++s) {
            int y = s / W;
            in_zone[BLACK][s] = y < ZONE;
            in_zone[WHITE][s] = y >= H - ZONE;
            last_rank[BLACK][s] = y == 0;
            last_rank[WHITE][s] = y == H - 1;
            last_two[BLACK][s] = y <= 1;
            last_two[WHITE][s] = y >= H - 2;
            for (int c = 0; c < 2; ++c)
                if (in_zone[c][s]) zone[c].set(s);
        }
        for (int i = 0; i < 32; ++i) promote_code[i] = 0;
        for (int c = 0; c < 2; ++c) {
            promote_code[code_of(PAWN, c)] = code_of(PRO_PAWN, c);
            promote_code[code_of(LANCE, c)] = code_of(PRO_LANCE, c);
            promote_code[code_of(KNIGHT, c)] = code_of(PRO_KNIGHT, c);
            promote_code[code_of(SILVER, c)] = code_of(PRO_SILVER, c);
            promote_code[code_of(BISHOP, c)] = code_of(HORSE, c);
            promote_code[code_of(ROOK, c)] = code_of(DRAGON, c);
        }
        for (int s = 0; s < N; ++s) {
            int x = s % W, y = s / W;
            for (int d = 0; d < 8; ++d)
                for (int cx = x + DX[d], cy = y + DY[d]; at(cx, cy) >= 0; cx += DX[d], cy += DY[d])
                    ray[s][d].push_back(at(cx, cy));
        }
        for (int c = 0; c < 2; ++c) {
            int sign = c == BLACK ? 1 : -1;
            for (int kind = 1; kind <= 14; ++kind) {
                int code = code_of(kind, c);
                for (const Vec& v : slide_vectors(kind))
                    slide_dirs[code].push_back(direction_index(v.dx, sign * v.dy));
                for (int s = 0; s < N; ++s) {
                    int x = s % W, y = s / W;
                    for (const Vec& v : step_vectors(kind)) {
                        int t = at(x + v.dx, y + sign * v.dy);
                        if (t >= 0) steps[code][s].push_back(t);
                    }
                }
                for (int d = 0; d < 8; ++d) {
                    // a piece on the square next to s in direction d attacks s by moving back
                    int bx = -DX[d], by = -DY[d];
                    bool step = false, slide = false;
                    for (const Vec& v : step_vectors(kind))
                        if (v.dx == bx && sign * v.dy == by) step = true;
                    for (const Vec& v : slide_vectors(kind))
                        if (v.dx == bx && sign * v.dy == by) slide = true;
                    if (step || slide) near_mask[c][d] |= 1u << code;
                    if (slide) far_mask[c][d] |= 1u << code;
                }
                for (int s = 0; s < N; ++s) {
                    for (int t : steps[code][s]) { check_from[code][t][s] = true; check_bits[t][code].set(s); }
                    for (int d : slide_dirs[code])
                        for (int t : ray[s][d]) { check_from[code][t][s] = true; check_bits[t][code].set(s); }
                }
            }
            int knight = code_of(KNIGHT, c);
            for (int s = 0; s < N; ++s)
                for (int t : steps[knight][s]) knight_from[c][t].push_back(s);
        }
        for (int a = 0; a < N; ++a) {
            for (int b = 0; b < N; ++b) line[a][b] = -1;
            for (int d = 0; d < 8; ++d) {
                const auto& r = ray[a][d];
                for (size_t i = 0; i < r.size(); ++i) {
                    line[a][r[i]] = d;
                    between[a][r[i]].assign(r.begin(), r.begin() + i);
                    ray_bits[a][d].set(r[i]);
                    on_lines[a].set(r[i]);
                    for (size_t j = 0; j < i; ++j) between_bits[a][r[i]].set(r[j]);
                }
            }
        }
        // the attack groups: a horse, a dragon and a king step to all eight neighbours, so
        // they share the king's; a horse slides as a bishop, a dragon as a rook
        for (int s = 0; s < N; ++s) {
            square[s].set(s);
            for (int code = 0; code < 32; ++code)
                for (int t : steps[code][s]) step_bits[code][s].set(t);
            for (int t = 0; t < N; ++t)
                if (std::abs(t % W - s % W) <= 2 && std::abs(t / W - s / W) <= 3) near_king[s].set(t);
        }
        uint8_t groups_of[32] = {};
        for (int c = 0; c < 2; ++c) {
            const int kinds[8] = {PAWN, KNIGHT, SILVER, GOLD, KING, ROOK, BISHOP, LANCE};
            for (int g = 0; g < 8; ++g)
                for (int s = 0; s < N; ++s) attack_from[c][s].set[g] = check_bits[s][code_of(kinds[g], c)];
            auto join = [&](int kind, int g) { groups_of[code_of(kind, c)] |= 1 << g; };
            join(PAWN, G_PAWN); join(KNIGHT, G_KNIGHT); join(SILVER, G_SILVER);
            for (int kind : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER}) join(kind, G_GOLD);
            for (int kind : {KING, HORSE, DRAGON}) join(kind, G_KING);
            join(ROOK, G_ROOK); join(DRAGON, G_ROOK);
            join(BISHOP, G_BISHOP); join(HORSE, G_BISHOP);
            join(LANCE, G_LANCE);
        }
        for (int code = 0; code < 32; ++code)
            for (int d : slide_dirs[code]) slide_mask[code] |= (uint8_t)(1 << d);
        for (int p = 0; p < N; ++p)
            for (int k = 0; k < N; ++k)
                for (int d = 0; d < 8; ++d)
                    if (!(ray_bits[p][d] & step_bits[code_of(KING, 0)][k]).empty()) toward[p][k] |= (uint8_t)(1 << d);
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < N; ++k)
                for (int t : steps[code_of(KING, 0)][k])
                    for (int i = 0; i < 3; ++i) slide_near[c][k][i] |= attack_from[c][t].set[G_ROOK + i];
        for (int code = 0; code < 32; ++code) {
            group1[code] = group2[code] = G_NONE;
            for (int g = 0; g < 8; ++g)
                if (groups_of[code] >> g & 1) (group1[code] == G_NONE ? group1[code] : group2[code]) = (uint8_t)g;
        }
        std::memset(can_check, 0, sizeof can_check);
        for (int code = 0; code < 32; ++code) {
            if (!kind_of(code) || kind_of(code) > 14) continue;
            int promoted = promote_code[code];
            for (int frm = 0; frm < N; ++frm) {
                std::vector<int> reach(steps[code][frm].begin(), steps[code][frm].end());
                for (int d : slide_dirs[code]) reach.insert(reach.end(), ray[frm][d].begin(), ray[frm][d].end());
                for (int t : reach)
                    for (int k = 0; k < N; ++k)
                        if (check_from[code][k][t] || (promoted && check_from[promoted][k][t]))
                            can_check[code][frm][k] = true;
            }
            for (int frm = 0; frm < N; ++frm)
                for (int k = 0; k < N; ++k)
                    if (can_check[code][frm][k]) can_check_bits[k][code].set(frm);
        }
        uint64_t state = 0x9E3779B97F4A7C15ull;  // splitmix64: fixed keys, same every run
        auto next = [&state]() {
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            return z ^ (z >> 31);
        };
        for (auto& row : zb) for (auto& v : row) v = next();
        for (auto& row : zh) for (auto& v : row) v = next();
        zturn = next();
    }
};

// made as the module is loaded, at an address fixed when it is linked: the code reads the
// tables directly, where through a pointer it read the pointer again after each store to
// the board (a byte store may alias it for the compiler)
const Tables TABLES;
constexpr const Tables* T = &TABLES;

// the tables' hash of a key
inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    return x ^ (x >> 33);
}

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

// -- the bounded df-pn search (tsumeqbf/dfpn/core.py's DfPn) -----------------------------

constexpr int64_t INF = 1000000000;  // a solved node's number; a threshold of INF: no limit

struct Aborted { std::string reason; bool signal; };

inline int64_t capped_sum(int64_t total, bool infinite) {
    return infinite ? INF : std::min(INF - 1, total);
}

inline int64_t share(int64_t th, int64_t total, int64_t child) {
    return th >= INF ? INF : std::min(INF - 1, th - total + child);
}

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
            throw Aborted{"node limit " + std::to_string(max_nodes) + " reached", false};
        if ((nodes & 255) == 0 && seconds >= 0 && std::chrono::steady_clock::now() > deadline)
            throw Aborted{"time limit reached", false};
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
        best_move = -1;
        start_clock();
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
};

// -- the unbounded df-pn search (tsumeqbf/dfpn/tsume.py's TsumeSearch) -------------------
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

    Dom dom() const {
        Dom d;
        d.board = pos.bkey;
        for (int i = 0; i < KINDS; ++i) {
            d.att.n[i] = (uint8_t)pos.hands[attacker][i + 1];
            d.dfn.n[i] = (uint8_t)pos.hands[attacker ^ 1][i + 1];
        }
        return d;
    }

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

    // -- checkpoints (Tsume.save / Tsume.load): the tables as records, field by field,
    // read through the tables' own walks and written back through their store functions,
    // so the file does not change with how the tables are laid out in memory
    struct Out {
        FILE* f;
        bool ok = true;
        template <class V> void put(const V& v) { ok = ok && std::fwrite(&v, sizeof v, 1, f) == 1; }
        void put(const Hand& h) { ok = ok && std::fwrite(h.n, KINDS, 1, f) == 1; }
    };
    struct In {
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
    static constexpr uint32_t TABLES_MAGIC = 0x544E5154;  // "TQNT"

    template <class F> void each_of(BoardTable::Kind kind, F&& f) const {
        table.each([&](const Entry& e) {
            if (e.kind() == kind) f(e);
        });
    }
    uint64_t count_of(BoardTable::Kind kind) const {
        uint64_t n = 0;
        each_of(kind, [&](const Entry&) { ++n; });
        return n;
    }

    // proofs and disproofs with their sequence numbers; an unsolved position as its board
    // and the attacker's hand (the defender's is the rest)
    void write_tables(Out& o, uint32_t version) const {
        o.put(TABLES_MAGIC); o.put(version);
        o.put(nodes); o.put(tt_hits); o.put(seq); o.put(n_proofs); o.put(n_disproofs);
        o.put(count_of(BoardTable::PROOF));
        each_of(BoardTable::PROOF, [&](const Entry& e) {
            o.put(e.board); o.put(hand_of(e.att())); o.put(hand_of(e.s.dfn));
            o.put((int64_t)e.s.seq); o.put(e.s.dist);
        });
        o.put(count_of(BoardTable::DISPROOF));
        each_of(BoardTable::DISPROOF, [&](const Entry& e) {
            o.put(e.board); o.put(hand_of(e.att())); o.put(hand_of(e.s.dfn)); o.put(e.s.seq);
        });
        o.put(count_of(BoardTable::UNSOLVED));
        each_of(BoardTable::UNSOLVED, [&](const Entry& e) {
            o.put(e.board); o.put(hand_of(e.att()));
            o.put(e.u.pn); o.put(e.u.dn); o.put(e.u.work); o.put(e.u.seen);
        });
        o.put((uint64_t)twins.size());
        twins.each([&](uint64_t key, uint64_t path) { o.put(key); o.put(path); });
        o.put(TABLES_MAGIC);
    }

    // the start of what write_tables wrote: why it is not this core's, empty when it is
    static std::string read_head(In& in, uint32_t version) {
        if (in.get<uint32_t>() != TABLES_MAGIC || !in.ok) return "not a table file of the native core";
        uint32_t theirs = in.get<uint32_t>();
        if (theirs != version)
            return "written by core VERSION " + std::to_string(theirs) + ", this is VERSION " +
                   std::to_string(version);
        return "";
    }

    // a proof record of write_tables: false when it is cut short or its sequence number
    // is beyond the table's
    static bool read_proof(In& in, Entry& e) {
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
    std::string read_tables(In& in, uint32_t version) {
        std::string why = read_head(in, version);
        if (!why.empty()) return why;
        nodes = in.get<int64_t>(); tt_hits = in.get<int64_t>(); seq = in.get<int64_t>();
        n_proofs = in.get<int64_t>(); n_disproofs = in.get<int64_t>();
        for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
            Entry e;
            if (read_proof(in, e)) table.insert(e);
            else in.ok = false;
        }
        for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
            uint64_t board = in.get<uint64_t>();
            Hand att = in.hand(), dfn = in.hand();
            int32_t s = in.get<int32_t>();
            if (in.ok) table.insert(BoardTable::solved(BoardTable::DISPROOF, board, att, dfn, s));
        }
        for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
            uint64_t board = in.get<uint64_t>();
            Hand att = in.hand();
            uint32_t pn = in.get<uint32_t>(), dn = in.get<uint32_t>(), work = in.get<uint32_t>();
            uint16_t seen = in.get<uint16_t>();
            if (in.ok) table.put(board, hand_bits(att), pn, dn, work, seen);
        }
        for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
            uint64_t key = in.get<uint64_t>(), path = in.get<uint64_t>();
            if (in.ok && twins.size() < twin_limit) twins.insert(key, path);
        }
        if (in.get<uint32_t>() != TABLES_MAGIC || !in.ok || seq >= INT32_MAX ||
            n_disproofs >= INT32_MAX)
            return "truncated";
        return "";
    }

    // the proofs of another search's file (seeds: TsumeTables.add_proofs), numbered
    // before this search's own in their own order, so a proven node's children still
    // come earlier; those held already (the same seed before a checkpoint) are skipped.
    // `added` counts the new ones; the reason the file cannot be read, empty when it was
    std::string read_proofs(In& in, uint32_t version, int64_t& added) {
        std::string why = read_head(in, version);
        if (!why.empty()) return why;
        for (int i = 0; i < 5; ++i) in.get<int64_t>();  // the counters: this search's stay
        std::vector<Entry> seeds;
        for (uint64_t n = in.get<uint64_t>(); n && in.ok; --n) {
            Entry e;
            if (read_proof(in, e)) seeds.push_back(e);
            else in.ok = false;
        }
        if (!in.ok) return "truncated";
        int64_t before = 1, last = 0, first = 0;
        each_of(BoardTable::PROOF, [&](const Entry& e) { before = std::min<int64_t>(before, e.s.seq); });
        for (const Entry& p : seeds) {
            last = std::max<int64_t>(last, p.s.seq);
            first = std::min<int64_t>(first, p.s.seq);
        }
        int64_t shift = before - 1 - last;  // the seed's last proof just before our first
        if (first + shift <= INT32_MIN) return "more proofs than the table numbers";
        added = 0;
        for (Entry& p : seeds) {
            bool held = false;
            table.scan(p.board, [&](const Entry& e) {
                held = e.kind() == BoardTable::PROOF && e.word == p.word && e.s.dfn == p.s.dfn;
                return held;
            });
            if (held) continue;
            p.s.seq = (int32_t)(p.s.seq + shift);
            table.insert(p);
            ++n_proofs;
            ++added;
        }
        return "";
    }
};

// -- the Python interface ----------------------------------------------------------------

// the interface's version: tsumeqbf/native/__init__.py refuses a core built from older
// source (its CORE_VERSION), which would lack what the Python side calls; checkpoints
// name it too
constexpr uint32_t CORE_VERSION = 10;

bool check_position(const char* board, Py_ssize_t nb, const char* hands, Py_ssize_t nh,
                    int turn, Position& pos) {
    if (nb != N || nh != 16 || (turn != 0 && turn != 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "the native core takes an 81-byte board, 16-byte hands and a side 0 or 1");
        return false;
    }
    for (int s = 0; s < N; ++s) {
        int code = (uint8_t)board[s];
        if (code && (kind_of(code) < 1 || kind_of(code) > 14 || code > 31)) {
            PyErr_Format(PyExc_ValueError, "bad piece code %d on square %d", code, s);
            return false;
        }
    }
    int kings[2] = {0, 0};
    for (int s = 0; s < N; ++s)
        if (board[s] && kind_of((uint8_t)board[s]) == KING) ++kings[color_of((uint8_t)board[s])];
    if (kings[0] > 1 || kings[1] > 1) {
        PyErr_SetString(PyExc_ValueError, "more than one king of a colour");
        return false;
    }
    pos.init((const uint8_t*)board, (const uint8_t*)hands, turn);
    return true;
}

PyObject* move_list(const std::vector<int>& moves) {
    PyObject* list = PyList_New((Py_ssize_t)moves.size());
    if (!list) return nullptr;
    for (size_t i = 0; i < moves.size(); ++i)
        PyList_SET_ITEM(list, (Py_ssize_t)i, PyLong_FromLong(moves[i]));
    return list;
}

PyObject* py_moves(PyObject* args, bool checks_only) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn;
    if (!PyArg_ParseTuple(args, "y#y#i", &board, &nb, &hands, &nh, &turn)) return nullptr;
    Position pos;
    if (!check_position(board, nb, hands, nh, turn, pos)) return nullptr;
    std::vector<int> moves;
    if (checks_only) pos.checks(moves); else pos.legal_moves(moves);
    return move_list(moves);
}

PyObject* py_legal_moves(PyObject*, PyObject* args) { return py_moves(args, false); }
PyObject* py_checks(PyObject*, PyObject* args) { return py_moves(args, true); }

// the limits and options both searches take from Python
template <class S>
void configure(S& search, int turn, long long max_nodes, double seconds, long long tt_limit,
               int mobility, int group_drops) {
    search.attacker = turn;
    search.max_nodes = max_nodes;
    search.seconds = seconds;
    search.table.limit = (size_t)tt_limit;
    search.mobility = mobility;
    search.group_drops = group_drops;
}

// body()'s verdict (1 mate, 0 no mate); -1 at a limit, with `reason`; -2 on a signal, the
// Python exception set by PyErr_CheckSignals
template <class F>
int guarded(F&& body, std::string& reason) {
    try {
        return body();
    } catch (const Aborted& a) {
        if (a.signal) return -2;
        reason = a.reason;
    } catch (const std::bad_alloc&) {
        reason = "out of memory";
    }
    return -1;
}

PyObject* verdict_object(int verdict) {
    PyObject* v = verdict < 0 ? Py_None : verdict ? Py_True : Py_False;
    Py_INCREF(v);
    return v;
}

// mate(board, hands, turn, n, max_nodes, seconds, tt_limit, mobility, group_drops) ->
// (verdict 1/0/None, best move or None, nodes, tt_hits, table size, reason)
PyObject* py_mate(PyObject*, PyObject* args) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn, n, mobility, group_drops;
    long long max_nodes, tt_limit, tick_every = 4096;
    double seconds;
    PyObject* tick = Py_None;
    if (!PyArg_ParseTuple(args, "y#y#iiLdLpp|OL", &board, &nb, &hands, &nh, &turn, &n,
                          &max_nodes, &seconds, &tt_limit, &mobility, &group_drops, &tick,
                          &tick_every))
        return nullptr;
    if (n < 1 || n % 2 == 0) {
        PyErr_Format(PyExc_ValueError, "n must be an odd number >= 1, got %d", n);
        return nullptr;
    }
    if (n > NumbersTable::MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "the native core searches at most %d plies, not %d",
                     NumbersTable::MAX_DEPTH, n);
        return nullptr;
    }
    if (tt_limit < 2) {
        PyErr_SetString(PyExc_ValueError, "tt_limit must be at least 2");
        return nullptr;
    }
    BoundedSearch search;
    if (!check_position(board, nb, hands, nh, turn, search.pos)) return nullptr;
    configure(search, turn, max_nodes, seconds, tt_limit, mobility, group_drops);
    search.tick = tick == Py_None ? nullptr : tick;
    search.tick_every = std::max(1LL, tick_every);
    int best = -1;
    std::string reason;
    int verdict = guarded([&] { return search.solve(n, best); }, reason);
    if (verdict == -2) return nullptr;  // the signal handler's exception (KeyboardInterrupt)
    PyObject* v = verdict_object(verdict);
    PyObject* bm = best >= 0 ? PyLong_FromLong(best) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("NNLLns", v, bm, (long long)search.nodes, (long long)search.tt_hits,
                         (Py_ssize_t)search.table.count, reason.c_str());
}

// -- Python objects: a game the answer printer walks, and an unbounded search that lasts
// between calls (the searches for a shorter line after a proof go on in its tables)

// whether `m` can be played on `p` without corrupting it: its squares on the board, its
// piece the mover's, its drop from the hand (legality is the caller's: moves come from
// the lists)
bool well_formed(const Position& p, long m) {
    if (m < 0 || m >= (1 << 15)) return false;
    int to = move_to((int)m), frm = move_from((int)m);
    if (to >= N || (p.board[to] && color_of(p.board[to]) == p.turn)) return false;
    if (frm >= DROP_BASE) {
        int kind = frm - DROP_BASE;
        return kind >= PAWN && kind <= ROOK && p.hands[p.turn][kind] > 0 && !p.board[to] &&
               !is_promotion((int)m);
    }
    if (frm >= N) return false;
    int code = p.board[frm];
    return code && color_of(code) == p.turn && (!is_promotion((int)m) || T->promote_code[code]);
}

PyObject* dominance_object(const Dom& d) {
    const uint8_t *a = d.att.n, *f = d.dfn.n;
    return Py_BuildValue("K(iiiiiii)(iiiiiii)", (unsigned long long)d.board, a[0], a[1], a[2],
                         a[3], a[4], a[5], a[6], f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
}

bool parse_dominance(PyObject* obj, Dom& d) {
    unsigned long long board;
    unsigned char* a = d.att.n;
    unsigned char* f = d.dfn.n;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a dominance is (board key, attacker's hand, defender's hand)");
        return false;
    }
    if (!PyArg_ParseTuple(obj, "K(bbbbbbb)(bbbbbbb)", &board, a, a + 1, a + 2, a + 3, a + 4,
                          a + 5, a + 6, f, f + 1, f + 2, f + 3, f + 4, f + 5, f + 6))
        return false;
    d.board = board;
    return true;
}

Dom dominance_of(const Position& p, int attacker) {
    Dom d;
    d.board = p.bkey;
    for (int i = 0; i < KINDS; ++i) {
        d.att.n[i] = (uint8_t)p.hands[attacker][i + 1];
        d.dfn.n[i] = (uint8_t)p.hands[attacker ^ 1][i + 1];
    }
    return d;
}

// check_position for the unbounded search, whose hands are bytes below MANY
bool load_position(const char* board, Py_ssize_t nb, const char* hands, Py_ssize_t nh,
                   int turn, Position& pos) {
    if (!check_position(board, nb, hands, nh, turn, pos)) return false;
    for (int c = 0; c < 2; ++c)
        for (int k = 1; k < 8; ++k)
            if (pos.hands[c][k] > MANY - 1) {
                PyErr_SetString(PyExc_ValueError, "the native core holds at most 98 of a kind in hand");
                return false;
            }
    return true;
}

// whether reply m (of the defender, to move at p) puts a piece between the king and a
// distant checker
bool interposes(const Position& p, int attacker, int m) {
    int k = p.kings[attacker ^ 1], to = move_to(m);
    if (k < 0 || to >= N || (!is_drop(m) && move_from(m) == k) || p.board[to]) return false;
    int checkers[16];
    int n = p.attackers(k, attacker, checkers);
    for (int i = 0; i < n; ++i)
        for (int x : T->between[k][checkers[i]])
            if (x == to) return true;
    return false;
}

// whether square sq touches the defender's king
bool touches_king(const Position& p, int attacker, long sq) {
    int k = p.kings[attacker ^ 1];
    if (k < 0 || sq < 0 || sq >= N) return false;
    int dx = std::abs((int)sq % W - k % W), dy = std::abs((int)sq / W - k / W);
    return std::max(dx, dy) == 1;
}

// Game(board, hands, turn): the position with the side to move the attacker; the methods
// of tsumeqbf.dfpn.game.TsumeGame that the answer and bounded df-pn ask
struct GameObject {
    PyObject_HEAD
    Position* pos;
    int attacker;
};

int game_init(GameObject* self, PyObject* args, PyObject*) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn;
    if (!PyArg_ParseTuple(args, "y#y#i", &board, &nb, &hands, &nh, &turn)) return -1;
    auto* pos = new Position();
    if (!load_position(board, nb, hands, nh, turn, *pos)) { delete pos; return -1; }
    delete self->pos;
    self->pos = pos;
    self->attacker = turn;
    return 0;
}

void game_dealloc(GameObject* self) {
    delete self->pos;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

PyObject* game_key(GameObject* self, PyObject*) {
    return PyLong_FromUnsignedLongLong(self->pos->key());
}

PyObject* game_is_or(GameObject* self, PyObject*) {
    return PyBool_FromLong(self->pos->turn == self->attacker);
}

PyObject* game_moves(GameObject* self, PyObject*) {
    std::vector<int> moves;
    Position& p = *self->pos;
    if (p.turn == self->attacker) p.checks(moves); else p.legal_moves(moves);
    return move_list(moves);
}

PyObject* game_play(GameObject* self, PyObject* arg) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return nullptr;
    if (!well_formed(*self->pos, m)) {
        PyErr_Format(PyExc_ValueError, "move %ld cannot be played here", m);
        return nullptr;
    }
    self->pos->push((int)m);
    Py_RETURN_NONE;
}

PyObject* game_undo(GameObject* self, PyObject*) {
    if (self->pos->stack.empty()) {
        PyErr_SetString(PyExc_IndexError, "no move to undo");
        return nullptr;
    }
    self->pos->pop();
    Py_RETURN_NONE;
}

PyObject* game_dominance(GameObject* self, PyObject*) {
    return dominance_object(dominance_of(*self->pos, self->attacker));
}

// reply_count(group_drops=True, group_interpositions=False): ShogiGame.reply_count at a
// defender's node (the side to move's legal moves, grouped)
PyObject* game_reply_count(GameObject* self, PyObject* args) {
    int group_drops = 1, group_interpositions = 0;
    if (!PyArg_ParseTuple(args, "|pp", &group_drops, &group_interpositions)) return nullptr;
    Position& p = *self->pos;
    return PyLong_FromLong(group_interpositions ? p.interposition_grouped_count()
                                                : p.grouped_reply_count(group_drops));
}

// is_interposition(m): a reply that puts a piece between the king and a distant checker
PyObject* game_is_interposition(GameObject* self, PyObject* arg) {
    long m = PyLong_AsLong(arg);
    if (m == -1 && PyErr_Occurred()) return nullptr;
    return PyBool_FromLong(interposes(*self->pos, self->attacker, (int)m));
}

// next_to_king(sq): whether the square touches the defender's king
PyObject* game_next_to_king(GameObject* self, PyObject* arg) {
    long sq = PyLong_AsLong(arg);
    if (sq == -1 && PyErr_Occurred()) return nullptr;
    return PyBool_FromLong(touches_king(*self->pos, self->attacker, sq));
}

PyMethodDef GAME_METHODS[] = {
    {"key", (PyCFunction)game_key, METH_NOARGS, "the position's key (side to move included)"},
    {"is_or", (PyCFunction)game_is_or, METH_NOARGS, "whether the attacker is to move"},
    {"moves", (PyCFunction)game_moves, METH_NOARGS, "the attacker's checks, or every reply"},
    {"play", (PyCFunction)game_play, METH_O, "play a move"},
    {"undo", (PyCFunction)game_undo, METH_NOARGS, "take the last move back"},
    {"dominance", (PyCFunction)game_dominance, METH_NOARGS,
     "(board key, attacker's hand, defender's hand), the tables' keys"},
    {"reply_count", (PyCFunction)game_reply_count, METH_VARARGS,
     "reply_count(group_drops=True, group_interpositions=False)"},
    {"is_interposition", (PyCFunction)game_is_interposition, METH_O,
     "whether a reply blocks a distant check"},
    {"next_to_king", (PyCFunction)game_next_to_king, METH_O,
     "whether a square touches the defender's king"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject GAME_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

// Tsume(board, hands, turn, tt_limit, mobility, group_drops, dag=True, inherit=True): the unbounded
// search from the position, its tables kept between calls
struct TsumeObject {
    PyObject_HEAD
    UnboundedSearch* search;
    bool busy;
    uint64_t root_key;
    Dom root;
};

int tsume_init(TsumeObject* self, PyObject* args, PyObject*) {
    const char *board, *hands;
    Py_ssize_t nb, nh;
    int turn, mobility, group_drops, dag = 1, inherit = 1, group_interpositions = 0;
    long long tt_limit;
    if (!PyArg_ParseTuple(args, "y#y#iLpp|ppp", &board, &nb, &hands, &nh, &turn, &tt_limit,
                          &mobility, &group_drops, &dag, &inherit, &group_interpositions))
        return -1;
    if (tt_limit < 2) {
        PyErr_SetString(PyExc_ValueError, "tt_limit must be at least 2");
        return -1;
    }
    auto* search = new UnboundedSearch();
    if (!load_position(board, nb, hands, nh, turn, search->pos)) { delete search; return -1; }
    search->attacker = turn;
    search->table.limit = (size_t)tt_limit;
    search->twin_limit = (size_t)tt_limit;
    search->mobility = mobility;
    search->group_drops = group_drops;
    search->dag = dag;
    search->inherit = inherit;
    search->group_interpositions = group_interpositions;
    delete self->search;
    self->search = search;
    self->busy = false;
    self->root_key = search->pos.key();
    self->root = search->dom();
    return 0;
}

void tsume_dealloc(TsumeObject* self) {
    delete self->search;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

// runs body() with the call's limits: (verdict True/False/None, reason); NULL with the
// exception of a signal or of the tick
template <class F>
PyObject* tsume_run(TsumeObject* self, long long max_nodes, double seconds, PyObject* tick,
                    long long tick_every, F&& body) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is already running");
        return nullptr;
    }
    UnboundedSearch& s = *self->search;
    s.max_nodes = max_nodes;
    s.seconds = seconds;
    s.tick = tick == Py_None ? nullptr : tick;
    s.tick_every = std::max(1LL, tick_every);
    self->busy = true;
    std::string reason;
    int verdict = guarded(body, reason);
    self->busy = false;
    s.tick = nullptr;
    if (verdict == -2) return nullptr;
    return Py_BuildValue("Ns", verdict_object(verdict), reason.c_str());
}

// solve(max_nodes, seconds, tick=None, tick_every=4096): the root; max_nodes counts every
// node of this search (-1: no limit), seconds this call's (-1: none)
PyObject* tsume_solve(TsumeObject* self, PyObject* args) {
    long long max_nodes, tick_every = 4096;
    double seconds;
    PyObject* tick = Py_None;
    if (!PyArg_ParseTuple(args, "Ld|OL", &max_nodes, &seconds, &tick, &tick_every)) return nullptr;
    return tsume_run(self, max_nodes, seconds, tick, tick_every,
                     [self] { return self->search->solve(); });
}

// solve_below(line, max_nodes, seconds, tick=None, tick_every=4096): the node `line`
// (legal moves from the root) leads to
PyObject* tsume_solve_below(TsumeObject* self, PyObject* args) {
    PyObject *seq, *tick = Py_None;
    long long max_nodes, tick_every = 4096;
    double seconds;
    if (!PyArg_ParseTuple(args, "OLd|OL", &seq, &max_nodes, &seconds, &tick, &tick_every))
        return nullptr;
    PyObject* fast = PySequence_Fast(seq, "line must be a sequence of moves");
    if (!fast) return nullptr;
    std::vector<int> line;
    Position& p = self->search->pos;
    bool legal = true;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast) && legal; ++i) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (m == -1 && PyErr_Occurred()) break;
        std::vector<int> moves;
        p.legal_moves(moves);
        legal = std::find(moves.begin(), moves.end(), (int)m) != moves.end();
        if (legal) { p.push((int)m); line.push_back((int)m); }
    }
    for (size_t i = 0; i < line.size(); ++i) p.pop();
    Py_DECREF(fast);
    if (PyErr_Occurred()) return nullptr;
    if (!legal) {
        PyErr_SetString(PyExc_ValueError, "line holds an illegal move");
        return nullptr;
    }
    return tsume_run(self, max_nodes, seconds, tick, tick_every,
                     [self, &line] { return self->search->solve_below(line); });
}

PyObject* tsume_proof_seq(TsumeObject* self, PyObject* arg) {
    Dom d;
    if (!parse_dominance(arg, d)) return nullptr;
    const BoardTable::Entry* e = self->search->proof_covering(d);
    if (!e) Py_RETURN_NONE;
    return PyLong_FromLongLong(e->s.seq);
}

PyObject* tsume_is_disproven(TsumeObject* self, PyObject* arg) {
    Dom d;
    if (!parse_dominance(arg, d)) return nullptr;
    return PyBool_FromLong(self->search->disproof_covering(d) != nullptr);
}

// a proof's sequence number at p (negative for a seed's), NO_PROOF when p is not proven
constexpr int64_t NO_PROOF = INT64_MIN;
int64_t proof_seq_at(const UnboundedSearch& s, const Position& p, int attacker) {
    const BoardTable::Entry* e = s.proof_covering(dominance_of(p, attacker));
    return e ? e->s.seq : NO_PROOF;
}

// the search is not running (a RuntimeError set when it is)
bool idle(const TsumeObject* self) {
    if (self->busy) PyErr_SetString(PyExc_RuntimeError, "the search is running");
    return !self->busy;
}

// o is a dict or None (a TypeError naming `what` set when not)
bool dict_or_none(PyObject* o, const char* what) {
    if (o == Py_None || PyDict_Check(o)) return true;
    PyErr_Format(PyExc_TypeError, "%s must be a dict or None", what);
    return false;
}

// rank_proven(game, limit, known=None): tsumeqbf.dfpn.answer.rank_proven walked here, the
// same ranking (see its docstring): each node of the proven part reachable from the game's
// position gets its distance to mate, every ply counted, by retrograde analysis; with
// `known` (a dict key -> distance) its nodes are leaves at their distance and an OR node
// follows only the checks proven before it. A dict of the nodes ranked (not those of
// `known`), or None past `limit` reachable nodes. In Python this walk was nearly all of the
// search for shorter lines (zukou-049: 15 walks, 45M children looked up, 95 CPU s).
struct RankWalk {
    const UnboundedSearch& s;
    int attacker;
    PyObject* known;  // a dict, or null
    std::unordered_map<uint64_t, int32_t> index;
    std::vector<uint64_t> keys;
    std::vector<int8_t> is_or;         // -1: a known leaf
    std::vector<int32_t> waiting;      // an AND node's replies without a distance yet
    std::vector<int64_t> dist;         // -1: none yet
    std::vector<std::pair<int32_t, int32_t>> edges;  // (child, parent)
    std::vector<int32_t> mated;
    size_t visited = 0;

    RankWalk(const UnboundedSearch& s, int attacker, PyObject* known)
        : s(s), attacker(attacker), known(known) {}

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
        if (!known) return 0;
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
        if (or_node) p.checks(moves); else p.legal_moves(moves);
        if (moves.empty()) {
            if (!or_node) mated.push_back(here);
            return true;
        }
        int64_t mine = known && or_node ? proof_seq(p) : NONE;
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
        std::sort(children.begin(), children.end());
        children.erase(std::unique(children.begin(), children.end(),
                                   [](auto& a, auto& b) { return a.first == b.first; }),
                       children.end());
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
        struct Frame { std::vector<int> follow; size_t next = 0; };
        int32_t root = node(p.key());
        is_or[root] = p.turn == attacker;
        waiting[root] = 0;
        visited = 1;
        std::vector<Frame> stack(1);
        if (!expand(p, root, stack.back().follow)) return -1;
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next == top.follow.size()) {
                stack.pop_back();
                if (!stack.empty()) p.pop();
                continue;
            }
            int m = top.follow[top.next++];
            p.push(m);
            int32_t i = node(p.key());
            if (visited_at(i)) { p.pop(); continue; }
            if ((long long)visited >= limit) {
                for (size_t k = 0; k < stack.size(); ++k) p.pop();
                return 0;
            }
            ++visited;
            is_or[i] = p.turn == attacker;
            waiting[i] = 0;  // visited (an AND node's count is set by expand)
            stack.emplace_back();
            if (!expand(p, i, stack.back().follow)) {
                for (size_t k = 0; k + 1 < stack.size(); ++k) p.pop();
                return -1;
            }
        }
        return 1;
    }
    bool visited_at(int32_t i) const { return waiting[i] != -1; }

    // the distances, in non-decreasing order from the mated and the known leaves
    void distances() {
        std::vector<int32_t> first(keys.size() + 1, 0), parents(edges.size());
        for (auto& e : edges) ++first[e.first + 1];
        for (size_t i = 0; i < keys.size(); ++i) first[i + 1] += first[i];
        std::vector<int32_t> fill(first.begin(), first.end() - 1);
        for (auto& e : edges) parents[fill[e.first]++] = e.second;
        std::map<int64_t, std::vector<int32_t>> buckets;
        buckets[0] = mated;
        for (int32_t i : mated) dist[i] = 0;
        for (size_t i = 0; i < keys.size(); ++i)
            if (is_or[i] == -1) buckets[dist[i]].push_back((int32_t)i);
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
};

PyObject* tsume_rank_proven(TsumeObject* self, PyObject* args) {
    PyObject *game, *known = Py_None;
    long long limit;
    if (!PyArg_ParseTuple(args, "O!L|O", &GAME_TYPE, &game, &limit, &known)) return nullptr;
    if (!dict_or_none(known, "known") || !idle(self)) return nullptr;
    GameObject* g = (GameObject*)game;
    RankWalk w(*self->search, g->attacker, known == Py_None ? nullptr : known);
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
// move), the children ordered by `rank` (a dict key -> distance) or, without it, by the
// proofs' sequence numbers. In Python this walk was most of the search for shorter lines
// once the ranking was walked here (zukou-001: 16 walks of about 3 CPU s each).
struct ValueWalk {
    struct OnStack {};
    struct Missing { const char* why; };  // answer.AnswerError
    struct PyFailed {};                   // a Python exception is set
    struct Val { int32_t length, left, best; bool on_stack; };

    const UnboundedSearch& s;
    int attacker;
    PyObject* rank;  // a dict, or null
    Position p;
    std::unordered_map<uint64_t, Val> memo;
    int depth = 0;

    ValueWalk(const UnboundedSearch& s, int attacker, PyObject* rank, const Position& from)
        : s(s), attacker(attacker), rank(rank), p(from) {}

    // `rank` copied into an open-addressed table: a walk looks each node up once per
    // parent, and the dict's lookups (three cache misses each) were a third of its time
    struct Slot { uint64_t key; int64_t d; };  // d -1: free
    std::vector<Slot> slots;
    uint64_t mask = 0;

    // false on a Python error
    bool load_rank() {
        size_t n = 2;
        while (n < 2 * (size_t)PyDict_Size(rank) + 2) n *= 2;
        slots.assign(n, Slot{0, -1});
        mask = n - 1;
        Py_ssize_t at = 0;
        PyObject *k, *v;
        while (PyDict_Next(rank, &at, &k, &v)) {
            unsigned long long key = PyLong_AsUnsignedLongLong(k);
            if (key == (unsigned long long)-1 && PyErr_Occurred()) return false;
            long long d = PyLong_AsLongLong(v);
            if (d == -1 && PyErr_Occurred()) return false;
            if (d < 0) {
                PyErr_SetString(PyExc_ValueError, "a rank is a distance, at least 0");
                return false;
            }
            uint64_t i = mix(key) & mask;
            while (slots[i].d >= 0 && slots[i].key != key) i = (i + 1) & mask;
            slots[i] = Slot{key, d};
        }
        return true;
    }

    // the current node's place in the order (a seed's proofs have negative sequence
    // numbers), NONE: not proven
    static constexpr int64_t NONE = NO_PROOF;
    int64_t order() {
        if (!rank) return proof_seq_at(s, p, attacker);
        uint64_t key = p.key(), i = mix(key) & mask;
        while (slots[i].d >= 0) {
            if (slots[i].key == key) return slots[i].d;
            i = (i + 1) & mask;
        }
        return NONE;
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
        auto it = memo.find(key);
        if (it != memo.end()) {
            if (it->second.on_stack) throw OnStack{};
            return it->second;
        }
        if (depth >= 20000) {
            PyErr_SetString(PyExc_RecursionError, "the proof's lines are too deep to read");
            throw PyFailed{};
        }
        memo[key] = Val{0, 0, -1, true};
        ++depth;
        try {
            Val v = value_here(muda);
            --depth;
            memo[key] = v;
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
        moves(ms);
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
        int32_t base = 0;
        for (const Scored& sc : kept) base = std::max(base, sc.length);
        for (const Scored& sc : inter) {
            if (touches_king(p, attacker, move_to(sc.move))) { kept.push_back(sc); continue; }
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
            auto it = memo.find(q.key());
            if (it == memo.end() || it->second.best < 0) break;
            out.push_back(it->second.best);
            q.push(it->second.best);
        }
        return out;
    }
};

PyObject* tsume_principal_variation(TsumeObject* self, PyObject* args) {
    PyObject *game, *rank = Py_None;
    int muda = 1;
    if (!PyArg_ParseTuple(args, "O!|pO", &GAME_TYPE, &game, &muda, &rank)) return nullptr;
    if (!dict_or_none(rank, "rank") || !idle(self)) return nullptr;
    GameObject* g = (GameObject*)game;
    ValueWalk w(*self->search, g->attacker, rank == Py_None ? nullptr : rank, *g->pos);
    if (rank != Py_None && !w.load_rank()) return nullptr;
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

PyObject* tsume_line(TsumeObject* self, PyObject*) {
    if (!idle(self)) return nullptr;
    return move_list(self->search->line());
}

// the moves from the root to the node being searched (read from a tick)
PyObject* tsume_current_line(TsumeObject* self, PyObject*) {
    std::vector<int> moves;
    for (const Undo& u : self->search->pos.stack) moves.push_back(u.move);
    return move_list(moves);
}

PyObject* tsume_root_numbers(TsumeObject* self, PyObject*) {
    int64_t pn, dn;
    self->search->root_numbers(self->root_key, self->root, pn, dn);
    return Py_BuildValue("LL", (long long)pn, (long long)dn);
}

// (nodes, tt_hits, unsolved entries, proofs, disproofs, twins)
PyObject* tsume_stats(TsumeObject* self, PyObject*) {
    const UnboundedSearch& s = *self->search;
    return Py_BuildValue("LLnLLn", (long long)s.nodes, (long long)s.tt_hits,
                         (Py_ssize_t)s.table.unsolved, (long long)s.n_proofs,
                         (long long)s.n_disproofs, (Py_ssize_t)s.twins.size());
}

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
    UnboundedSearch::Out out{f};
    out.ok = std::fwrite(head, 1, (size_t)nhead, f) == (size_t)nhead;
    self->search->write_tables(out, CORE_VERSION);
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
    UnboundedSearch::In in{f};
    std::string why;
    try {
        why = fresh->read_tables(in, CORE_VERSION);
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
    UnboundedSearch::In in{f};
    std::string why;
    int64_t added = 0;
    try {
        why = self->search->read_proofs(in, CORE_VERSION, added);
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

PyMethodDef TSUME_METHODS[] = {
    {"add_proofs", (PyCFunction)tsume_add_proofs, METH_VARARGS,
     "add_proofs(path): the proofs of a file save() wrote, before this search's own"},
    {"save", (PyCFunction)tsume_save, METH_VARARGS,
     "save(path, head): the tables to a file, after the bytes head (two lines)"},
    {"load", (PyCFunction)tsume_load, METH_VARARGS,
     "load(path): the tables a save() wrote, into a search that has not run"},
    {"solve", (PyCFunction)tsume_solve, METH_VARARGS,
     "solve(max_nodes, seconds, tick=None, tick_every=4096) -> (verdict, reason)"},
    {"solve_below", (PyCFunction)tsume_solve_below, METH_VARARGS,
     "solve_below(line, max_nodes, seconds, tick=None, tick_every=4096) -> (verdict, reason)"},
    {"proof_seq", (PyCFunction)tsume_proof_seq, METH_O,
     "the smallest sequence number of a proof covering a dominance, or None"},
    {"is_disproven", (PyCFunction)tsume_is_disproven, METH_O,
     "whether a path-independent disproof covers a dominance"},
    {"rank_proven", (PyCFunction)tsume_rank_proven, METH_VARARGS,
     "rank_proven(game, limit, known=None): answer.rank_proven's ranking, or None"},
    {"principal_variation", (PyCFunction)tsume_principal_variation, METH_VARARGS,
     "principal_variation(game, muda=True, rank=None): answer.principal_variation's line"},
    {"line", (PyCFunction)tsume_line, METH_NOARGS, "a mating line read off the proofs"},
    {"current_line", (PyCFunction)tsume_current_line, METH_NOARGS,
     "the moves from the root to the node being searched"},
    {"root_numbers", (PyCFunction)tsume_root_numbers, METH_NOARGS,
     "the root's (pn, dn) now"},
    {"stats", (PyCFunction)tsume_stats, METH_NOARGS,
     "(nodes, tt_hits, unsolved entries, proofs, disproofs, twins)"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject TSUME_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

// -- the dag-fold listing (tsumeqbf/encoder/dag.py) ---------------------------------------
// For each position after ply n - 2 (an SFEN as cshogi writes it), the defender's legal
// replies and how many of them leave the attacker no check that mates: the counts the
// fold's clauses need, in place of the Python lister's per-reply test (its bottleneck).

// the kind of an SFEN piece letter (either case), 0 for none
int sfen_kind(char ch) {
    switch (ch | 0x20) {
        case 'p': return PAWN;
        case 'l': return LANCE;
        case 'n': return KNIGHT;
        case 's': return SILVER;
        case 'g': return GOLD;
        case 'b': return BISHOP;
        case 'r': return ROOK;
        case 'k': return KING;
        default: return 0;
    }
}

// the SFEN's board from its start; the text after it, nullptr when malformed
const char* parse_sfen_board(const char* s, uint8_t* board) {
    std::memset(board, 0, N);
    int sq = 0, rank_end = W;
    for (; *s && *s != ' '; ++s) {
        if (*s == '/') {
            if (sq != rank_end) return nullptr;
            rank_end += W;
            continue;
        }
        if ('1' <= *s && *s <= '9') {
            sq += *s - '0';
        } else {
            bool promoted = *s == '+';
            if (promoted) ++s;
            int kind = sfen_kind(*s);
            if (!kind || sq >= rank_end || (promoted && (kind == GOLD || kind == KING)))
                return nullptr;
            if (promoted) kind = kind == BISHOP ? HORSE : kind == ROOK ? DRAGON : kind + 8;
            board[sq++] = (uint8_t)code_of(kind, *s >= 'a');
        }
        if (sq > rank_end) return nullptr;
    }
    return sq == N && rank_end == N ? s : nullptr;
}

// the SFEN's hands ("-" or counts and letters, as "R2b15p") into 16 bytes as check_position
// takes them; false when malformed
bool parse_sfen_hands(const char* s, uint8_t* hands) {
    std::memset(hands, 0, 16);
    if (*s == '-') return s[1] == 0 || s[1] == ' ';
    for (; *s && *s != ' '; ++s) {
        int count = 0;
        for (; '0' <= *s && *s <= '9' && count < 256; ++s) count = count * 10 + (*s - '0');
        int kind = sfen_kind(*s), slot = (*s >= 'a') * 8 + kind;
        count = count ? count : 1;
        if (!kind || kind == KING || hands[slot] + count > 255) return false;
        hands[slot] = (uint8_t)(hands[slot] + count);
    }
    return true;
}

// board, hands and side to move of an SFEN (its move number, if any, unread)
bool parse_sfen(const char* s, uint8_t* board, uint8_t* hands, int& turn) {
    s = parse_sfen_board(s, board);
    if (!s || *s != ' ' || (s[1] != 'b' && s[1] != 'w') || s[2] != ' ') return false;
    turn = s[1] == 'w';
    return parse_sfen_hands(s + 3, hands);
}

// whether the side to move has a legal check after which the other side has no legal move
bool mates_in_one(Position& p) {
    std::vector<int> checks;
    p.checks(checks);
    for (int m : checks) {
        p.push(m);
        bool mated = !p.has_legal_move();
        p.pop();
        if (mated) return true;
    }
    return false;
}

// (the legal replies of the side to move, those after which the other side does not
// mate in one)
std::pair<int, int> reply_mate_counts(Position& p) {
    std::vector<int> replies;
    p.legal_moves(replies);
    int lost = 0;
    for (int m : replies) {
        p.push(m);
        lost += !mates_in_one(p);
        p.pop();
    }
    return {(int)replies.size(), lost};
}

// whether every legal reply of the side to move leaves the other side a check that mates
// in one (true with no reply: mated): the first reply without one ends the test
bool every_reply_mated(Position& p) {
    std::vector<int> replies;
    p.legal_moves(replies);
    for (int m : replies) {
        p.push(m);
        bool mated = mates_in_one(p);
        p.pop();
        if (!mated) return false;
    }
    return true;
}

// the position of an SFEN (a str) into `pos`; false with the Python exception set
bool load_sfen(PyObject* item, Position& pos) {
    uint8_t board[N], hands[16];
    int turn = 0;
    const char* text = PyUnicode_AsUTF8(item);
    if (!text) return false;
    if (!parse_sfen(text, board, hands, turn)) {
        PyErr_Format(PyExc_ValueError, "not an SFEN the native core reads: %s", text);
        return false;
    }
    return check_position((const char*)board, N, (const char*)hands, 16, turn, pos);
}

PyObject* counts_object(std::pair<int, int> c) { return Py_BuildValue("ii", c.first, c.second); }

// a list of each(pos) per SFEN of the list `sfens`; NULL with the exception on a bad one
template <class Each>
PyObject* per_sfen(PyObject* args, Each&& each) {
    PyObject* sfens;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &sfens)) return nullptr;
    Py_ssize_t count = PyList_GET_SIZE(sfens);
    PyObject* out = PyList_New(count);
    if (!out) return nullptr;
    Position pos;
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* item = load_sfen(PyList_GET_ITEM(sfens, i), pos) ? each(pos) : nullptr;
        if (!item) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

// fold_counts(sfens) -> [(legal replies, replies after which no check mates)] per SFEN
PyObject* py_fold_counts(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) { return counts_object(reply_mate_counts(pos)); });
}

// fold_checks(sfens) -> per SFEN, for each legal check of the side to move (the core's
// order) the fold_counts of the position after it: ply n - 2 and n - 1 in one call, the
// positions after ply n - 2 not merged (on mate11-5 at 11 the checks are 14 % more)
PyObject* py_fold_checks(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) -> PyObject* {
        std::vector<int> checks;
        pos.checks(checks);
        PyObject* list = PyList_New((Py_ssize_t)checks.size());
        for (size_t i = 0; list && i < checks.size(); ++i) {
            pos.push(checks[i]);
            PyList_SET_ITEM(list, (Py_ssize_t)i, counts_object(reply_mate_counts(pos)));
            pos.pop();
        }
        return list;
    });
}

// fold_wins(sfens) -> per SFEN the number of legal checks of the side to move after which
// every reply is answered by a check that mates (those whose fold_counts lose none): plies
// n - 2 and n - 1 of dag-fold-reduced, each check's test ended by its first lost reply
PyObject* py_fold_wins(PyObject*, PyObject* args) {
    return per_sfen(args, [](Position& pos) -> PyObject* {
        std::vector<int> checks;
        pos.checks(checks);
        long wins = 0;
        for (int m : checks) {
            pos.push(m);
            wins += every_reply_mated(pos);
            pos.pop();
        }
        return PyLong_FromLong(wins);
    });
}

PyMethodDef METHODS[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(board, hands, turn) -> every legal move of the side to move"},
    {"checks", py_checks, METH_VARARGS,
     "checks(board, hands, turn) -> the legal moves that check the opponent's king"},
    {"mate", py_mate, METH_VARARGS,
     "mate(board, hands, turn, n, max_nodes, seconds, tt_limit, mobility, group_drops, "
     "tick=None, tick_every=4096) -> "
     "(verdict, best move, nodes, tt_hits, table size, reason): bounded df-pn, Mate(P, n)"},
    {"fold_counts", py_fold_counts, METH_VARARGS,
     "fold_counts(sfens) -> per SFEN (legal replies, replies after which no check mates)"},
    {"fold_checks", py_fold_checks, METH_VARARGS,
     "fold_checks(sfens) -> per SFEN, per legal check, fold_counts of the position after it"},
    {"fold_wins", py_fold_wins, METH_VARARGS,
     "fold_wins(sfens) -> per SFEN, the legal checks after which fold_counts lose no reply"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_core",
                      "tsumeqbf's native core: standard 9x9 move generation and df-pn", -1,
                      METHODS};

}  // namespace

PyMODINIT_FUNC PyInit__core(void) {
    GAME_TYPE.tp_name = "tsumeqbf.native._core.Game";
    GAME_TYPE.tp_basicsize = sizeof(GameObject);
    GAME_TYPE.tp_flags = Py_TPFLAGS_DEFAULT;
    GAME_TYPE.tp_doc = "Game(board, hands, turn): a position to walk, the side to move attacking";
    GAME_TYPE.tp_new = PyType_GenericNew;
    GAME_TYPE.tp_init = (initproc)game_init;
    GAME_TYPE.tp_dealloc = (destructor)game_dealloc;
    GAME_TYPE.tp_methods = GAME_METHODS;
    TSUME_TYPE.tp_name = "tsumeqbf.native._core.Tsume";
    TSUME_TYPE.tp_basicsize = sizeof(TsumeObject);
    TSUME_TYPE.tp_flags = Py_TPFLAGS_DEFAULT;
    TSUME_TYPE.tp_doc = "Tsume(board, hands, turn, tt_limit, mobility, group_drops, dag=True, inherit=True): "
        "unbounded df-pn";
    TSUME_TYPE.tp_new = PyType_GenericNew;
    TSUME_TYPE.tp_init = (initproc)tsume_init;
    TSUME_TYPE.tp_dealloc = (destructor)tsume_dealloc;
    TSUME_TYPE.tp_methods = TSUME_METHODS;
    if (PyType_Ready(&GAME_TYPE) < 0 || PyType_Ready(&TSUME_TYPE) < 0) return nullptr;
    PyObject* module = PyModule_Create(&MODULE);
    if (!module) return nullptr;
    if (PyModule_AddIntConstant(module, "VERSION", CORE_VERSION) < 0) {
        Py_DECREF(module);
        return nullptr;
    }
    Py_INCREF(&GAME_TYPE);
    Py_INCREF(&TSUME_TYPE);
    if (PyModule_AddObject(module, "Game", (PyObject*)&GAME_TYPE) < 0 ||
        PyModule_AddObject(module, "Tsume", (PyObject*)&TSUME_TYPE) < 0) {
        Py_DECREF(module);
        return nullptr;
    }
    return module;
}
