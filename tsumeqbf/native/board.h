// The board's encodings and the move tables the position reads (built once, as the module
// is loaded): what a square, a piece code and a move are, the pieces' steps and lines, the
// Zobrist keys.

#pragma once

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

}  // namespace
