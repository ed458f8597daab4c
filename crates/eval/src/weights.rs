//! Every weight of the evaluation, in one place, so that the Texel tuner and the GPU kernel
//! generator read (and the tuner rewrites) a single file. Values are hand-set from common chess
//! knowledge, in centipawns, as midgame/endgame pairs `S(mg, eg)`; tables indexed by piece type
//! use the order pawn, knight, bishop, rook, queen, king. Penalties are stored negative, so every
//! term only ever *adds* weights.

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

/// The value of each piece type. Rooks and pawns gain in the endgame, minor pieces lose a little.
pub const MATERIAL: [Score; 6] = [
    s(82, 100),
    s(325, 300),
    s(335, 320),
    s(470, 530),
    s(960, 990),
    s(0, 0),
];

// ---- Piece-square tables ------------------------------------------------------------------
//
// Written as the board is drawn from white's side: the first row is rank 8, the last rank 1, files
// a to h left to right. A piece of colour `c` on `sq` reads entry `sq.relative(c).index() ^ 56`
// (the `^ 56` turns the drawing's row order into square order). Material is separate, so these
// are small positional adjustments that average out near zero.

#[rustfmt::skip]
pub const PST_MG: [[i32; 64]; 6] = [
    // Pawn: central pawns forward, keep f/g/h pawns home in front of the castled king.
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
    // Knight: centralise, avoid the rim.
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
    // Bishop: long diagonals and the squares in front of the own pawns; not the corners.
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
    // Rook: the seventh rank, central files on the back rank.
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
    // Queen: mild centralisation; early adventures are discouraged by king safety and mobility.
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
    // King: stay home behind the pawns, preferably castled.
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
    // Pawn: the further advanced, the closer to queening (passed pawns get more, separately).
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
    // Knight: the centre matters even more with few pawns to anchor on.
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
    // Bishop: centralised, away from corners.
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
    // Rook: nearly flat; the seventh rank still helps.
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
    // Queen: centralised.
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
    // King: come to the centre once the queens are off.
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
pub const MOBILITY: [Score; 6] = [s(0, 0), s(4, 4), s(5, 5), s(2, 4), s(1, 2), s(0, 0)];

/// The safe-square count each piece type is measured against, roughly its typical count, so
/// that mobility shifts value around a piece's average rather than inflating its material.
pub const MOBILITY_CENTER: [i32; 6] = [0, 4, 6, 7, 13, 0];

// ---- Pawn structure -----------------------------------------------------------------------

/// Passed pawn by relative rank (index 0 = rank 1 … 7 = rank 8; ranks 1 and 8 never hold pawns).
/// Grows steeply towards promotion, and more in the endgame, where fewer pieces can stop it.
pub const PASSED_PAWN: [Score; 8] = [
    s(0, 0),
    s(0, 5),
    s(5, 10),
    s(10, 20),
    s(20, 40),
    s(35, 70),
    s(60, 110),
    s(0, 0),
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

/// Attack units are capped here before scoring.
pub const KING_DANGER_CAP: i32 = 40;

/// Midgame penalty is `units² / KING_DANGER_MG_DIVISOR` (danger grows faster than the number of
/// attacked squares: attacks cooperate).
pub const KING_DANGER_MG_DIVISOR: i32 = 5;

/// Endgame penalty per attack unit (linear: with few pieces left, mates are rare).
pub const KING_DANGER_EG_PER_UNIT: i32 = 1;

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
