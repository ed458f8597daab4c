//! The search kernel's source, assembled in dependency order: the board and its legal move
//! generation, the evaluation (its weights generated from `kogge_eval`, then `eval.h`), the
//! generated search tables (Zobrist keys, reductions, pruning constants), `see.h`,
//! `gives_check.h`, the search's parts (`search_state.h`, `search_position.h`,
//! `search_moves.h`, `search_table.h`, `search_split.h`) and `search.cl`.

use crate::eval_source::search_source_prefix;
use crate::game_keys::{GAME_FILTER_BIT_SHIFT, GAME_FILTER_WORD_SHIFT, GAME_KEYS};
use crate::layout::{GPU_MAX_PLY, HISTORY_WORDS, ROOT_MARGIN, WORKER_LANES};
use crate::tables_source::{search_constants_source, zobrist_source};
use kogge_eval::Weights;

/// The search's parts, in the order they build on each other, then the state machine and the
/// kernel (`search.cl`).
const SEARCH_PARTS: [&str; 6] = [
    include_str!("../../gpu/kernels/search_state.h"),
    include_str!("../../gpu/kernels/search_position.h"),
    include_str!("../../gpu/kernels/search_moves.h"),
    include_str!("../../gpu/kernels/search_table.h"),
    include_str!("../../gpu/kernels/search_split.h"),
    include_str!("../../gpu/kernels/search.cl"),
];
/// `kernels/see.h`: static exchange evaluation (needs the search constants' SEE_VALUE).
const SEE_H: &str = include_str!("../../gpu/kernels/see.h");
/// `kernels/gives_check.h`: whether a move can give check, without making it.
const GIVES_CHECK_H: &str = include_str!("../../gpu/kernels/gives_check.h");

/// The search module's sources in order, with the engine's evaluation weights, up to and
/// including its first `parts` parts (of [`SEARCH_PARTS`]).
fn search_sources(parts: usize) -> Vec<String> {
    let mut sources = vec![
        search_source_prefix(&Weights::DEFAULT),
        zobrist_source(),
        search_constants_source(),
        SEE_H.to_string(),
        GIVES_CHECK_H.to_string(),
    ];
    sources.extend(SEARCH_PARTS[..parts].iter().map(|part| part.to_string()));
    sources
}

/// The whole source of the search module, with the engine's evaluation weights.
pub fn search_source() -> String {
    search_sources(SEARCH_PARTS.len()).join("\n")
}

/// `kernels/see_check.cl`: see.h's answers for a batch of moves, to compare with the CPU's.
const SEE_CHECK_CL: &str = include_str!("../../gpu/kernels/see_check.cl");

/// The source of the `see_check` kernel: the search's include order up to see.h, then the
/// batch kernel. Built with [`search_defines`].
pub fn see_check_source() -> String {
    [
        search_source_prefix(&Weights::DEFAULT),
        search_constants_source(),
        SEE_H.to_string(),
        SEE_CHECK_CL.to_string(),
    ]
    .join("\n")
}

/// `kernels/gives_check_check.cl`: gives_check.h's answers for a batch of moves, to compare
/// with the CPU's board.
const GIVES_CHECK_CHECK_CL: &str = include_str!("../../gpu/kernels/gives_check_check.cl");

/// The source of the `gives_check_check` kernel: the board, its tables and gives_check.h. Built
/// with [`search_defines`].
pub fn gives_check_check_source() -> String {
    [
        search_source_prefix(&Weights::DEFAULT),
        GIVES_CHECK_H.to_string(),
        GIVES_CHECK_CHECK_CL.to_string(),
    ]
    .join("\n")
}

/// `kernels/gen_check.cl`: search_moves.h's move lists for a batch of positions.
const GEN_CHECK_CL: &str = include_str!("../../gpu/kernels/gen_check.cl");

/// The source of the `gen_check` kernel: the search's parts up to its move generation
/// (`search_moves.h`), then the batch kernel. Built with [`search_defines`].
pub fn gen_check_source() -> String {
    // search_state.h, search_position.h and search_moves.h.
    let mut sources = search_sources(3);
    sources.push(GEN_CHECK_CL.to_string());
    sources.join("\n")
}

/// `kernels/lane_qs.h`: quiescence search by one lane alone.
const LANE_QS_H: &str = include_str!("../../gpu/kernels/lane_qs.h");
/// `kernels/lane_qs_check.cl`: lane_qs.h over a batch of positions, a lane each.
const LANE_QS_CHECK_CL: &str = include_str!("../../gpu/kernels/lane_qs_check.cl");

/// The source of the `lane_qs_check` kernel: the search's parts up to its move ordering
/// (`search_moves.h`), then lane_qs.h and the batch kernel. Built with [`search_defines`].
pub fn lane_qs_check_source() -> String {
    // search_state.h, search_position.h and search_moves.h.
    let mut sources = search_sources(3);
    sources.push(LANE_QS_H.to_string());
    sources.push(LANE_QS_CHECK_CL.to_string());
    sources.join("\n")
}

/// The `#define`s the search kernel is built with.
pub fn search_defines() -> Vec<(&'static str, String)> {
    vec![
        ("GPU_MAX_PLY", GPU_MAX_PLY.to_string()),
        ("WORKER_LANES", WORKER_LANES.to_string()),
        ("HISTORY_WORDS", HISTORY_WORDS.to_string()),
        ("ROOT_MARGIN", ROOT_MARGIN.to_string()),
        ("GAME_KEYS", format!("{GAME_KEYS}u")),
        ("GAME_FILTER_WORD_SHIFT", GAME_FILTER_WORD_SHIFT.to_string()),
        ("GAME_FILTER_BIT_SHIFT", GAME_FILTER_BIT_SHIFT.to_string()),
        // One copy of each large helper: the search's code must fit the instruction cache.
        ("HEAVY_FN", "NOINLINE_FN".to_string()),
        ("SLIDER_FN", "NOINLINE_FN".to_string()),
    ]
}
