//! Writes a set of [`Weights`] as the Rust source of `crates/eval/src/weights.rs`: the whole file,
//! comments included, so that the tuner's output replaces it as is. The structural constants that
//! are not tuned (phase weights, mobility centres, king attack weights, the attacker threshold)
//! are copied from the current build. A test checks that the file in the tree is what this writes
//! for [`Weights::DEFAULT`] (comments and spacing aside), so the two cannot drift apart.

use kogge_eval::{Score, Weights, weights};
use std::fmt::Write;

/// Piece-type names in table order, for the comments.
const PIECES: [&str; 6] = ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];

/// The source of `weights.rs` for `w`. `note` (may be empty) is added to the file's header as a
/// record of where the values came from (data set, K, loss).
pub fn weights_rs(w: &Weights, note: &str) -> String {
    let mut out = String::new();
    header(&mut out, note);
    phase_and_material(&mut out, w);
    piece_squares(&mut out, w);
    mobility_and_pawns(&mut out, w);
    king_safety(&mut out, w);
    pieces_and_tempo(&mut out, w);
    out
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn s(v: Score) -> String {
    format!("s({}, {})", v.mg, v.eg)
}

fn rule(out: &mut String, title: &str) {
    let dashes = "-".repeat(94 - 9 - title.len());
    let _ = writeln!(out, "// ---- {title} {dashes}\n");
}

/// `pub const NAME: Score = s(mg, eg);` with its doc comment.
fn scalar(out: &mut String, doc: &str, name: &str, v: Score) {
    for line in doc.lines() {
        let _ = writeln!(out, "/// {line}");
    }
    let _ = writeln!(out, "pub const {name}: Score = {};\n", s(v));
}

/// A `Score` table, one entry per line with a comment naming its index.
fn score_table(out: &mut String, name: &str, values: &[Score], label: impl Fn(usize) -> String) {
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub const {name}: [Score; {}] = [", values.len());
    let cells: Vec<String> = values.iter().map(|v| format!("{},", s(*v))).collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0);
    for (i, cell) in cells.iter().enumerate() {
        let _ = writeln!(out, "    {cell:<width$} // {}", label(i));
    }
    let _ = writeln!(out, "];\n");
}

fn header(out: &mut String, note: &str) {
    out.push_str(
        "//! Every weight of the evaluation, in one place, so that the Texel tuner and the GPU kernel
//! generator read (and the tuner rewrites) a single file. Values are in centipawns, as
//! midgame/endgame pairs `s(mg, eg)`; tables indexed by piece type use the order pawn, knight,
//! bishop, rook, queen, king. Penalties are stored negative, so every term only ever *adds*
//! weights.
//!
//! The structural constants (phase weights, mobility centres, king attack weights, the attacker
//! threshold) are set by hand. Every other value started hand-set from common chess knowledge
//! and is rewritten by `kogge-tune tune` (Texel's method on self-play positions), which writes
//! this whole file: change a comment in the tuner's `emit.rs`, or it is lost at the next tuning.
",
    );
    if !note.trim().is_empty() {
        out.push_str("//!\n");
        for line in wrap(note, 96) {
            let _ = writeln!(out, "//! {line}");
        }
    }
    out.push_str(
        "
use crate::score::Score;

/// Shorthand for the tables below.
const fn s(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

",
    );
}

fn phase_and_material(out: &mut String, w: &Weights) {
    rule(out, "Game phase");
    let _ = writeln!(
        out,
        "/// Phase contribution of each piece type (pawn … king); the sum over the board, clamped to
/// 0..=24, is the game phase (24 at the start, 0 with only kings and pawns).
pub const PHASE_WEIGHT: [i32; 6] = {:?};
",
        weights::PHASE_WEIGHT
    );
    rule(out, "Material");
    let _ = writeln!(
        out,
        "/// The value of each piece type (the king's is never used)."
    );
    score_table(out, "MATERIAL", &w.material, |i| PIECES[i].to_lowercase());
}

fn piece_squares(out: &mut String, w: &Weights) {
    rule(out, "Piece-square tables");
    out.push_str(
        "// Written as the board is drawn from white's side: the first row is rank 8, the last rank 1, files
// a to h left to right. A piece of colour `c` on `sq` reads entry `sq.relative(c).index() ^ 56`
// (the `^ 56` turns the drawing's row order into square order). Material is separate, so these
// are positional adjustments; the tuner shifts each table's average into the material value.
// Pawns never stand on the first or last row, whose entries stay zero.

",
    );
    for (name, phase) in [("PST_MG", 0), ("PST_EG", 1)] {
        let _ = writeln!(out, "#[rustfmt::skip]");
        let _ = writeln!(out, "pub const {name}: [[i32; 64]; 6] = [");
        for (pt, table) in w.pst.iter().enumerate() {
            let _ = writeln!(out, "    // {}", PIECES[pt]);
            let _ = writeln!(out, "    [");
            for row in 0..8 {
                let cells: Vec<String> = (0..8)
                    .map(|file| {
                        // Drawing row 0 is rank 8: square index (7 - row) * 8 + file.
                        let v = table[(7 - row) * 8 + file];
                        format!("{:>4},", if phase == 0 { v.mg } else { v.eg })
                    })
                    .collect();
                let _ = writeln!(out, "       {}", cells.join(""));
            }
            let _ = writeln!(out, "    ],");
        }
        let _ = writeln!(out, "];\n");
    }
}

fn mobility_and_pawns(out: &mut String, w: &Weights) {
    rule(out, "Mobility");
    out.push_str(
        "/// Value of one safe square (attacked, not holding an own piece, not attacked by an enemy pawn)
/// per piece type; only knight, bishop, rook and queen are scored.
",
    );
    score_table(out, "MOBILITY", &w.mobility, |i| PIECES[i].to_lowercase());
    let _ = writeln!(
        out,
        "/// The safe-square count each piece type is measured against, roughly its typical count, so
/// that mobility shifts value around a piece's average rather than inflating its material.
pub const MOBILITY_CENTER: [i32; 6] = {:?};
",
        weights::MOBILITY_CENTER
    );
    rule(out, "Pawn structure");
    out.push_str(
        "/// Passed pawn by relative rank (index 0 = rank 1 … 7 = rank 8; ranks 1 and 8 never hold pawns).
/// Grows steeply towards promotion, and more in the endgame, where fewer pieces can stop it.
",
    );
    score_table(out, "PASSED_PAWN", &w.passed_pawn, |i| {
        format!("rank {}", i + 1)
    });
    scalar(
        out,
        "Per pawn with no own pawn on either adjacent file.",
        "ISOLATED_PAWN",
        w.isolated_pawn,
    );
    scalar(
        out,
        "Per pawn with an own pawn in front of it on the same file.",
        "DOUBLED_PAWN",
        w.doubled_pawn,
    );
    scalar(
        out,
        "Per backward pawn (see `pawns.rs`).",
        "BACKWARD_PAWN",
        w.backward_pawn,
    );
}

fn king_safety(out: &mut String, w: &Weights) {
    rule(out, "King safety");
    let _ = writeln!(
        out,
        "/// Attack units per king-zone square attacked, by attacker type (pawn … king).
pub const KING_ATTACK_WEIGHT: [i32; 6] = {:?};

/// Fewer enemy pieces than this attacking the zone count as no attack: one piece alone
/// rarely mates.
pub const KING_ATTACKERS_MIN: i32 = {};
",
        weights::KING_ATTACK_WEIGHT,
        weights::KING_ATTACKERS_MIN
    );
    out.push_str(
        "/// King danger by attack units (index = units, capped at the last entry), paid once the zone has
/// at least [`KING_ATTACKERS_MIN`] attackers: a table rather than a formula so that the tuner can
/// shape it freely. It started as `-units² / 5` in the midgame (attacks by several pieces
/// cooperate, so danger grows faster than the count of attacked squares) and `-units` in the
/// endgame (with few pieces left, mates are rare). Two attackers make at least 4 units, so the
/// first entries are never used.
",
    );
    score_table(out, "KING_DANGER", &w.king_danger, |i| format!("{i}"));
    scalar(
        out,
        "Per own pawn on the second relative rank in front of (or beside) a castled king.",
        "PAWN_SHIELD_CLOSE",
        w.pawn_shield_close,
    );
    scalar(
        out,
        "Per own pawn one rank further (third relative rank) in front of a castled king.",
        "PAWN_SHIELD_FAR",
        w.pawn_shield_far,
    );
}

fn pieces_and_tempo(out: &mut String, w: &Weights) {
    rule(out, "Pieces");
    scalar(
        out,
        "Two bishops on opposite square colours: together they cover the whole board.",
        "BISHOP_PAIR",
        w.bishop_pair,
    );
    scalar(
        out,
        "Rook on a file with no pawns at all.",
        "ROOK_OPEN_FILE",
        w.rook_open_file,
    );
    scalar(
        out,
        "Rook on a file with enemy pawns but none of its own.",
        "ROOK_HALF_OPEN_FILE",
        w.rook_half_open_file,
    );
    rule(out, "Tempo");
    scalar(
        out,
        "The side to move has the initiative: worth a little, more in the opening.",
        "TEMPO",
        w.tempo,
    );
    // No blank line at the end of the file.
    out.pop();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The code without comments and whitespace: what must agree between the file and the writer.
    fn code_only(source: &str) -> String {
        source
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<String>()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }

    #[test]
    fn the_tree_holds_what_the_writer_writes_for_the_default_weights() {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/eval/src/weights.rs");
        let file = std::fs::read_to_string(&path).expect("crates/eval/src/weights.rs");
        let written = weights_rs(&Weights::DEFAULT, "");
        assert_eq!(code_only(&written), code_only(&file));
    }

    #[test]
    fn the_note_goes_into_the_header() {
        let text = weights_rs(&Weights::DEFAULT, "Tuned on 3 positions.");
        assert!(text.contains("//!\n//! Tuned on 3 positions.\n"), "{text}");
        let long = "word ".repeat(60);
        let text = weights_rs(&Weights::DEFAULT, &long);
        assert!(text.lines().all(|l| l.len() <= 100), "{text}");
    }
}
