//! Every weight of the evaluation, in one place, so that the Texel tuner and the GPU kernel
//! generator read (and the tuner rewrites) a single file. Values are in centipawns, as
//! midgame/endgame pairs `s(mg, eg)`; tables indexed by piece type use the order pawn, knight,
//! bishop, rook, queen, king. Penalties are stored negative, so every term only ever *adds*
//! weights.
//!
//! The structural constants (phase weights, mobility centres, king attack weights, the attacker
//! threshold) are set by hand. Every other value started hand-set from common chess knowledge
//! and is rewritten by `kogge-tune tune` (Texel's method on self-play positions), which writes
//! this whole file: change a comment in the tuner's `emit.rs`, or it is lost at the next tuning.
//!
//! Tuned by `kogge-tune tune` on 383818 positions of 5,000 self-play games at 5,000 nodes per move
//! (seeds 1 and 2) (selfplay-all.txt), the last 10% (42646 positions) held out; K = 0.006765, L2
//! 1e-7, 2000 epochs of Adam. Mean squared error 0.090076 -> 0.087758 on the training positions,
//! 0.080620 -> 0.079299 held out.

use crate::score::Score;

/// Shorthand for the tables below.
const fn s(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

// ---- Game phase ---------------------------------------------------------------------------

/// Phase contribution of each piece type (pawn … king); the sum over the board, clamped to
/// 0..=24, is the game phase (24 at the start, 0 with only kings and pawns).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

// ---- Material -----------------------------------------------------------------------------

/// The value of each piece type (the king's is never used).
#[rustfmt::skip]
pub const MATERIAL: [Score; 6] = [
    s(87, 126),  // pawn
    s(322, 287), // knight
    s(339, 317), // bishop
    s(470, 526), // rook
    s(958, 989), // queen
    s(0, 0),     // king
];

// ---- Piece-square tables ------------------------------------------------------------------

// Written as the board is drawn from white's side: the first row is rank 8, the last rank 1, files
// a to h left to right. A piece of colour `c` on `sq` reads entry `sq.relative(c).index() ^ 56`
// (the `^ 56` turns the drawing's row order into square order). Material is separate, so these
// are positional adjustments; the tuner shifts each table's average into the material value.
// Pawns never stand on the first or last row, whose entries stay zero.

#[rustfmt::skip]
pub const PST_MG: [[i32; 64]; 6] = [
    // Pawn
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         20,  21,  21,  20,  20,  20,  20,  21,
          1,   0,  13,  12,  14,  11,   0,   5,
         -1,  -1,  -1,   5,   0,  -3,  -5,  -6,
        -14,  -3,  -8,   5,   3,  -1, -11,  -9,
        -13, -12,  -4,  -9,  -9,  -7,  -1,  -6,
         -2,  -9,  -8, -30, -29,   0,   2, -11,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Knight
    [
        -38, -27, -17, -17, -17, -17, -27, -37,
        -26,  -7,  12,  14,  13,  14,  -7, -27,
        -16,  14,  23,  31,  29,  23,  13, -17,
        -16,  14,  32,  38,  34,  29,  14, -15,
        -15,  13,  26,  29,  37,  28,  14, -14,
        -19,  13,  19,  25,  28,  14,  20, -19,
        -27,  -7,  17,  22,  16,  12,  -6, -26,
        -37, -19, -18, -16, -19, -17, -24, -37,
    ],
    // Bishop
    [
        -18,  -8,  -8,  -8,  -8,  -8,  -8, -18,
         -8,   1,   1,   2,   2,   1,   3,  -8,
         -7,   3,   7,  13,  10,   7,   2,  -6,
         -8,  10,   7,   8,  15,   9,   8,  -9,
         -8,   1,  10,  15,  11,   7,   2,  -8,
        -10,  12,  12,  14,  16,  11,   8,  -8,
         -9,   9,   4,  -4,  -2,   4,  14,  -8,
        -18,  -6,  -4,  -9,  -7, -10,  -7, -18,
    ],
    // Rook
    [
          0,   0,   0,   0,   0,   0,   0,   0,
          7,  10,  11,  11,  11,  11,  10,   5,
         -4,   1,   2,   1,   2,   1,   0,  -5,
         -4,   1,   1,   1,   1,   0,   1,  -5,
         -4,   0,   0,  -1,   2,   0,   0,  -5,
         -6,  -1,  -2,   0,   0,  -1,  -1,  -5,
        -10,  -2,  -6,  -3,   0,  -3,   0, -12,
         -2,   1,   5,  10,   9,  10,  -3, -11,
    ],
    // Queen
    [
        -17,  -7,  -7,  -2,  -2,  -7,  -7, -16,
         -7,   3,   3,   3,   3,   3,   3,  -6,
         -8,   4,   8,   7,   8,   9,   5,  -6,
         -2,   3,   8,   8,   8,   7,   4,   0,
         -2,   4,   6,   9,   6,   6,   5,  -3,
         -5,   1,   8,   3,   9,   6,   4,  -7,
         -9,   4,  15,   1,   8,   2,   3,  -8,
        -16,  -7,  -4,  -3,  -1,  -8,  -7, -17,
    ],
    // King
    [
         -7, -17, -17, -27, -27, -17, -17,  -7,
         -7, -17, -17, -27, -27, -17, -17,  -7,
         -7, -16, -17, -27, -27, -17, -17,  -7,
         -7, -17, -17, -28, -28, -17, -16,  -7,
          3,  -6,  -8, -19, -18,  -7,  -7,   4,
         13,   4,   2,   3,   2,   3,   5,  13,
         38,  38,  24,  10,  10,  21,  39,  38,
         41,  50,  37,  22,  37,  17,  60,  44,
    ],
];

#[rustfmt::skip]
pub const PST_EG: [[i32; 64]; 6] = [
    // Pawn
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         27,  31,  33,  28,  31,  28,  33,  32,
         18,  17,  15,   6,   8,   6,   9,  11,
          5,   9,   0,  -9,  -9,  -4,   3,  -2,
         -9,  -1,  -1, -10, -11, -13, -10, -11,
        -16,  -9, -14, -20, -20,  -5, -19, -12,
        -13, -10, -23, -20, -17, -15, -14, -16,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Knight
    [
        -38, -27, -17, -16, -17, -17, -27, -37,
        -26,  -6,  11,  14,  13,  14,  -8, -27,
        -16,  13,  26,  30,  27,  22,  12, -17,
        -16,  14,  31,  33,  31,  28,  11, -17,
        -16,  13,  29,  32,  33,  27,  14, -15,
        -18,  12,  22,  25,  28,  24,  12, -18,
        -27,  -7,  13,  15,   9,  12,  -7, -27,
        -37, -25, -17, -17, -18, -17, -27, -37,
    ],
    // Bishop
    [
        -16,  -7,  -7,  -7,  -7,  -7,  -7, -17,
         -6,   3,   4,   3,   3,   2,   4,  -7,
         -7,   5,   7,  13,   8,   8,   2,  -6,
         -6,   3,  13,  13,  19,  12,   6, -10,
         -8,   3,  12,  17,  17,  12,   3,  -7,
         -8,   3,   7,  12,  19,  10,   1,  -7,
         -7,   2,   4,   2,   6,   4,   0,  -7,
        -16,  -5,  -6,  -7,  -7,  -6,  -7, -18,
    ],
    // Rook
    [
         -1,   0,  -1,   0,   0,  -1,  -1,  -1,
         12,  10,  10,  12,  10,   9,   8,   9,
          1,   1,   0,   1,   1,  -1,  -1,  -1,
          2,  -1,  -1,  -1,  -1,  -1,   0,   0,
          0,  -1,   0,  -3,   2,   0,  -1,  -1,
         -4,  -2,  -2,   2,   0,  -2,  -2,  -1,
         -3,  -4,  -4,  -5,  -2,  -4,  -2,  -2,
         -5,  -4,   0,  -1,  -4,  -5,  -2,  -5,
    ],
    // Queen
    [
        -20, -10, -10,  -5,  -5, -11, -10, -20,
        -10,   0,   6,   5,   5,   5,   0, -10,
        -11,   5,  11,  10,  10,  11,   6, -10,
         -5,   5,  10,  15,  15,  10,   5,  -4,
         -5,   6,  10,  15,  15,   9,   5,  -5,
         -9,   4,   9,   9,   9,   9,   5, -10,
        -10,   0,   6,   5,   5,   4,   0, -10,
        -20, -10, -10,  -6,  -5, -11, -10, -20,
    ],
    // King
    [
        -40, -29, -20, -10,  -9, -19, -30, -40,
        -20,  -9,   1,  11,  11,   1,  -8, -19,
        -20,   2,  30,  38,  39,  31,   4, -19,
        -20,   1,  37,  47,  45,  41,   3, -19,
        -19,   1,  37,  41,  44,  37,   3, -18,
        -20,   2,  27,  34,  35,  27,   5, -18,
        -20, -18,  14,  11,   9,   9, -13, -18,
        -42, -22, -18, -19, -23, -21, -21, -42,
    ],
];

// ---- Mobility -----------------------------------------------------------------------------

/// Value of one safe square (attacked, not holding an own piece, not attacked by an enemy pawn)
/// per piece type; only knight, bishop, rook and queen are scored.
#[rustfmt::skip]
pub const MOBILITY: [Score; 6] = [
    s(0, 0),   // pawn
    s(-1, -4), // knight
    s(5, 4),   // bishop
    s(7, 2),   // rook
    s(2, 2),   // queen
    s(0, 0),   // king
];

/// The safe-square count each piece type is measured against, roughly its typical count, so
/// that mobility shifts value around a piece's average rather than inflating its material.
pub const MOBILITY_CENTER: [i32; 6] = [0, 4, 6, 7, 13, 0];

// ---- Pawn structure -----------------------------------------------------------------------

/// Passed pawn by relative rank (index 0 = rank 1 … 7 = rank 8; ranks 1 and 8 never hold pawns).
/// Grows steeply towards promotion, and more in the endgame, where fewer pieces can stop it.
#[rustfmt::skip]
pub const PASSED_PAWN: [Score; 8] = [
    s(0, 0),    // rank 1
    s(2, 8),    // rank 2
    s(7, 11),   // rank 3
    s(3, 28),   // rank 4
    s(19, 39),  // rank 5
    s(35, 68),  // rank 6
    s(63, 104), // rank 7
    s(0, 0),    // rank 8
];

/// Per pawn with no own pawn on either adjacent file.
pub const ISOLATED_PAWN: Score = s(-14, -13);

/// Per pawn with an own pawn in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-14, -16);

/// Per backward pawn (see `pawns.rs`).
pub const BACKWARD_PAWN: Score = s(-12, -16);

// ---- King safety --------------------------------------------------------------------------

/// Attack units per king-zone square attacked, by attacker type (pawn … king).
pub const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Fewer enemy pieces than this attacking the zone count as no attack: one piece alone
/// rarely mates.
pub const KING_ATTACKERS_MIN: i32 = 2;

/// King danger by attack units (index = units, capped at the last entry), paid once the zone has
/// at least [`KING_ATTACKERS_MIN`] attackers: a table rather than a formula so that the tuner can
/// shape it freely. It started as `-units² / 5` in the midgame (attacks by several pieces
/// cooperate, so danger grows faster than the count of attacked squares) and `-units` in the
/// endgame (with few pieces left, mates are rare). Two attackers make at least 4 units, so the
/// first entries are never used.
#[rustfmt::skip]
pub const KING_DANGER: [Score; 41] = [
    s(0, 0),      // 0
    s(0, -1),     // 1
    s(0, -2),     // 2
    s(-1, -3),    // 3
    s(-5, -4),    // 4
    s(-6, -7),    // 5
    s(-8, -6),    // 6
    s(-11, -9),   // 7
    s(-11, -5),   // 8
    s(-17, -10),  // 9
    s(-20, -8),   // 10
    s(-24, -8),   // 11
    s(-29, -13),  // 12
    s(-33, -9),   // 13
    s(-40, -14),  // 14
    s(-45, -15),  // 15
    s(-51, -16),  // 16
    s(-57, -17),  // 17
    s(-63, -17),  // 18
    s(-72, -19),  // 19
    s(-80, -20),  // 20
    s(-88, -21),  // 21
    s(-96, -22),  // 22
    s(-105, -23), // 23
    s(-115, -24), // 24
    s(-125, -25), // 25
    s(-135, -26), // 26
    s(-145, -27), // 27
    s(-156, -28), // 28
    s(-168, -29), // 29
    s(-180, -30), // 30
    s(-192, -31), // 31
    s(-204, -32), // 32
    s(-217, -33), // 33
    s(-231, -34), // 34
    s(-245, -35), // 35
    s(-259, -36), // 36
    s(-273, -37), // 37
    s(-288, -38), // 38
    s(-304, -39), // 39
    s(-320, -40), // 40
];

/// Per own pawn on the second relative rank in front of (or beside) a castled king.
pub const PAWN_SHIELD_CLOSE: Score = s(9, -4);

/// Per own pawn one rank further (third relative rank) in front of a castled king.
pub const PAWN_SHIELD_FAR: Score = s(9, -4);

// ---- Pieces -------------------------------------------------------------------------------

/// Two bishops on opposite square colours: together they cover the whole board.
pub const BISHOP_PAIR: Score = s(32, 51);

/// Rook on a file with no pawns at all.
pub const ROOK_OPEN_FILE: Score = s(37, 8);

/// Rook on a file with enemy pawns but none of its own.
pub const ROOK_HALF_OPEN_FILE: Score = s(18, 8);

// ---- Tempo --------------------------------------------------------------------------------

/// The side to move has the initiative: worth a little, more in the opening.
pub const TEMPO: Score = s(9, 0);
