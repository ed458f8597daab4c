/* line_attacks.h: the attacks of one piece from a small table (for rooks and bishops by
 * "kindergarten" multiplication), for the search and its evaluation, where each lane of a warp
 * looks up the piece it took. Needs board.h before it.
 *
 * Why not board.h's fills: four of some twenty-five instructions each per kind of line, and the
 * search's code must stay small (with sixteen warps per multiprocessor most of its stalls were
 * waits for instructions). Why not lookup.h's magics: their rook table is 800 KB, an L2 access
 * per lookup for a search that waits on every result; this table's lookups are 11 KB and stay in
 * the L1 cache. A line costs one multiply, one load and a few logic operations.
 *
 * The table (crates/search-gpu/src/line_table.rs, LINE_TABLE_WORDS words, made from the CPU's
 * attacks):
 *   64 * file + index: a slider on `file` of a rank, attacking along that rank, whose six inner
 *     squares are occupied as `index` says (bit i: file i + 1); the attack set is copied to all
 *     eight ranks, so that a mask of any line with one square per file picks it out;
 *   LINE_FILE_ATTACKS + 64 * rank + index: a slider on `rank` of the a-file attacking along it,
 *     its inner squares occupied as `index` says (bit i: rank 6 - i);
 *   LINE_KNIGHT, LINE_KING + square, LINE_PAWN + 64 * colour + square: the leapers' attacks,
 *     one load where the shifts of board.h's set-wise functions take some twenty instructions;
 *   LINE_DIAGONAL, LINE_ANTIDIAGONAL + square: board.h's diagonal_of and antidiagonal_of;
 *   LINE_KPK: the evaluation's king and pawn against king table (crates/eval's kpk, 3,072 words
 *     of a bit a position), read only for such an ending (eval.h's kpk_draw).
 * A line with one square per file (a rank, a diagonal) brings its squares' occupancy to the top
 * six bits of the product with the b-file; a file, shifted onto the a-file, does so (in reverse
 * order) in the product with the c2-h7 diagonal. The slider's own square may be in the index:
 * the table ignores it. */

#define LINE_FILE_ATTACKS 512u
#define LINE_KNIGHT 1024u
#define LINE_KING 1088u
#define LINE_PAWN 1152u
#define LINE_DIAGONAL 1280u
#define LINE_ANTIDIAGONAL 1344u
#define LINE_KPK 1408u
#define LINE_TABLE_WORDS 4480u

DEVICE_FN u64 diagonal_at(const GLOBAL u64 *t, u32 sq) { return t[LINE_DIAGONAL + sq]; }
DEVICE_FN u64 antidiagonal_at(const GLOBAL u64 *t, u32 sq) { return t[LINE_ANTIDIAGONAL + sq]; }

/* Attacks from `sq` along `line` (one square per file, through sq). */
DEVICE_FN u64 line_attacks(const GLOBAL u64 *t, u32 sq, u64 occ, u64 line) {
    u32 index = (u32)(((occ & line) * 0x0202020202020202UL) >> 58);
    return t[(sq & 7u) * 64u + index] & line;
}

/* Attacks from `sq` along its file. */
DEVICE_FN u64 file_attacks(const GLOBAL u64 *t, u32 sq, u64 occ) {
    u64 a_file = (occ >> (sq & 7u)) & 0x0101010101010101UL;
    u32 index = (u32)((a_file * 0x0080402010080400UL) >> 58);
    return t[LINE_FILE_ATTACKS + (sq >> 3) * 64u + index] << (sq & 7u);
}

/* LOOKUP_FN marks rook_from and bishop_from, inlined at each of their calls by default. Out of
 * line (`-DLOOKUP_FN=NOINLINE_FN`: 8,104 instead of 8,496 instructions in the search kernel,
 * 126.6 KiB: under the H200's 128 KiB instruction cache) they cost one worker 6-7% at depth 12
 * and gained no nodes a second at game depths: +0.1% [-2.2, +2.3] at 264 workers to depth 19,
 * +1.5% [-8.3, +11.3] at 2,112 to depth 17 (eighty-sixth session). The code the search runs most
 * is some 57 KiB, twice the 32 KiB a multiprocessor runs at full speed; one copy of these saves
 * too little. */
#ifndef LOOKUP_FN
#define LOOKUP_FN DEVICE_FN
#endif

LOOKUP_FN u64 rook_from(const GLOBAL u64 *t, u32 sq, u64 occ) {
    return line_attacks(t, sq, occ, RANK_1 << (sq & 56u)) | file_attacks(t, sq, occ);
}

LOOKUP_FN u64 bishop_from(const GLOBAL u64 *t, u32 sq, u64 occ) {
    return line_attacks(t, sq, occ, diagonal_at(t, sq)) | line_attacks(t, sq, occ, antidiagonal_at(t, sq));
}

/* The rank and the file through `sq`; its diagonal and anti-diagonal: the lines a rook or a
 * bishop on `sq` would move along on an empty board. */
DEVICE_FN u64 orthogonals_at(u32 sq) { return (RANK_1 << (sq & 56u)) | (0x0101010101010101UL << (sq & 7u)); }
DEVICE_FN u64 diagonals_at(const GLOBAL u64 *t, u32 sq) { return diagonal_at(t, sq) | antidiagonal_at(t, sq); }

DEVICE_FN u64 knight_from(const GLOBAL u64 *t, u32 sq) { return t[LINE_KNIGHT + sq]; }
DEVICE_FN u64 king_from(const GLOBAL u64 *t, u32 sq) { return t[LINE_KING + sq]; }
/* The squares a pawn of `colour` on `sq` takes on. */
DEVICE_FN u64 pawn_from(const GLOBAL u64 *t, u32 colour, u32 sq) { return t[LINE_PAWN + 64u * colour + sq]; }
