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
    s(82, 100),  // pawn
    s(325, 300), // knight
    s(335, 320), // bishop
    s(470, 530), // rook
    s(960, 990), // queen
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
         30,  30,  30,  30,  30,  30,  30,  30,
         10,  10,  20,  25,  25,  20,  10,  10,
          5,   5,  10,  20,  20,  10,   5,   5,
          0,   0,   5,  18,  18,   5,   0,   0,
          5,  -5,  -5,   5,   5,  -5,  -5,   5,
          5,  10,  10, -20, -20,  10,  10,   5,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Knight
    [
        -50, -40, -30, -30, -30, -30, -40, -50,
        -40, -20,   0,   0,   0,   0, -20, -40,
        -30,   0,  10,  15,  15,  10,   0, -30,
        -30,   5,  15,  20,  20,  15,   5, -30,
        -30,   0,  15,  20,  20,  15,   0, -30,
        -30,   5,  10,  15,  15,  10,   5, -30,
        -40, -20,   0,   5,   5,   0, -20, -40,
        -50, -40, -30, -30, -30, -30, -40, -50,
    ],
    // Bishop
    [
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -10,   0,   5,  10,  10,   5,   0, -10,
        -10,   5,   5,  10,  10,   5,   5, -10,
        -10,   0,  10,  10,  10,  10,   0, -10,
        -10,  10,  10,  10,  10,  10,  10, -10,
        -10,   5,   0,   0,   0,   0,   5, -10,
        -20, -10, -10, -10, -10, -10, -10, -20,
    ],
    // Rook
    [
          0,   0,   0,   0,   0,   0,   0,   0,
          5,  10,  10,  10,  10,  10,  10,   5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
          0,   0,   0,   5,   5,   0,   0,   0,
    ],
    // Queen
    [
        -20, -10, -10,  -5,  -5, -10, -10, -20,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -10,   0,   5,   5,   5,   5,   0, -10,
         -5,   0,   5,   5,   5,   5,   0,  -5,
         -5,   0,   5,   5,   5,   5,   0,  -5,
        -10,   5,   5,   5,   5,   5,   0, -10,
        -10,   0,   5,   0,   0,   0,   0, -10,
        -20, -10, -10,  -5,  -5, -10, -10, -20,
    ],
    // King
    [
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -20, -30, -30, -40, -40, -30, -30, -20,
        -10, -20, -20, -20, -20, -20, -20, -10,
         15,  15,   0, -10, -10,   0,  15,  15,
         20,  30,  10,   0,   0,  10,  30,  20,
    ],
];

#[rustfmt::skip]
pub const PST_EG: [[i32; 64]; 6] = [
    // Pawn
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         50,  50,  50,  50,  50,  50,  50,  50,
         30,  30,  30,  30,  30,  30,  30,  30,
         20,  20,  20,  20,  20,  20,  20,  20,
         10,  10,  10,  10,  10,  10,  10,  10,
          5,   5,   5,   5,   5,   5,   5,   5,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Knight
    [
        -50, -40, -30, -30, -30, -30, -40, -50,
        -40, -20,   0,   0,   0,   0, -20, -40,
        -30,   0,  10,  15,  15,  10,   0, -30,
        -30,   0,  15,  20,  20,  15,   0, -30,
        -30,   0,  15,  20,  20,  15,   0, -30,
        -30,   0,  10,  15,  15,  10,   0, -30,
        -40, -20,   0,   0,   0,   0, -20, -40,
        -50, -40, -30, -30, -30, -30, -40, -50,
    ],
    // Bishop
    [
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -10,   0,   5,  10,  10,   5,   0, -10,
        -10,   0,  10,  15,  15,  10,   0, -10,
        -10,   0,  10,  15,  15,  10,   0, -10,
        -10,   0,   5,  10,  10,   5,   0, -10,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -20, -10, -10, -10, -10, -10, -10, -20,
    ],
    // Rook
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         10,  10,  10,  10,  10,  10,  10,  10,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // Queen
    [
        -20, -10, -10,  -5,  -5, -10, -10, -20,
        -10,   0,   5,   5,   5,   5,   0, -10,
        -10,   5,  10,  10,  10,  10,   5, -10,
         -5,   5,  10,  15,  15,  10,   5,  -5,
         -5,   5,  10,  15,  15,  10,   5,  -5,
        -10,   5,  10,  10,  10,  10,   5, -10,
        -10,   0,   5,   5,   5,   5,   0, -10,
        -20, -10, -10,  -5,  -5, -10, -10, -20,
    ],
    // King
    [
        -50, -40, -30, -20, -20, -30, -40, -50,
        -30, -20, -10,   0,   0, -10, -20, -30,
        -30, -10,  20,  30,  30,  20, -10, -30,
        -30, -10,  30,  40,  40,  30, -10, -30,
        -30, -10,  30,  40,  40,  30, -10, -30,
        -30, -10,  20,  30,  30,  20, -10, -30,
        -30, -30,   0,   0,   0,   0, -30, -30,
        -50, -30, -30, -30, -30, -30, -30, -50,
    ],
];

// ---- Mobility -----------------------------------------------------------------------------

/// Value of one safe square (attacked, not holding an own piece, not attacked by an enemy pawn)
/// per piece type; only knight, bishop, rook and queen are scored.
#[rustfmt::skip]
pub const MOBILITY: [Score; 6] = [
    s(0, 0), // pawn
    s(4, 4), // knight
    s(5, 5), // bishop
    s(2, 4), // rook
    s(1, 2), // queen
    s(0, 0), // king
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
    s(0, 5),    // rank 2
    s(5, 10),   // rank 3
    s(10, 20),  // rank 4
    s(20, 40),  // rank 5
    s(35, 70),  // rank 6
    s(60, 110), // rank 7
    s(0, 0),    // rank 8
];

/// Per pawn with no own pawn on either adjacent file.
pub const ISOLATED_PAWN: Score = s(-10, -15);

/// Per pawn with an own pawn in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(-10, -20);

/// Per backward pawn (see `pawns.rs`).
pub const BACKWARD_PAWN: Score = s(-8, -10);

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
    s(-3, -4),    // 4
    s(-5, -5),    // 5
    s(-7, -6),    // 6
    s(-9, -7),    // 7
    s(-12, -8),   // 8
    s(-16, -9),   // 9
    s(-20, -10),  // 10
    s(-24, -11),  // 11
    s(-28, -12),  // 12
    s(-33, -13),  // 13
    s(-39, -14),  // 14
    s(-45, -15),  // 15
    s(-51, -16),  // 16
    s(-57, -17),  // 17
    s(-64, -18),  // 18
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
pub const PAWN_SHIELD_CLOSE: Score = s(15, 0);

/// Per own pawn one rank further (third relative rank) in front of a castled king.
pub const PAWN_SHIELD_FAR: Score = s(8, 0);

// ---- Pieces -------------------------------------------------------------------------------

/// Two bishops on opposite square colours: together they cover the whole board.
pub const BISHOP_PAIR: Score = s(30, 50);

/// Rook on a file with no pawns at all.
pub const ROOK_OPEN_FILE: Score = s(25, 10);

/// Rook on a file with enemy pawns but none of its own.
pub const ROOK_HALF_OPEN_FILE: Score = s(12, 6);

// ---- Tempo --------------------------------------------------------------------------------

/// The side to move has the initiative: worth a little, more in the opening.
pub const TEMPO: Score = s(15, 5);
