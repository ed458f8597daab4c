//! The GPU search's move generation (kernels/search_moves.h's `gen_sorted`, a piece a lane, the
//! enemy's attack map a piece a lane) against the CPU's legal moves on every device present
//! (PoCL in CI): every move, and quiescence's (captures, en passant and queen promotions; every
//! evasion in check), over the shared suites and random playouts. Each list must also be in
//! strictly descending order of its sort keys. The search's one-worker trees are checked
//! elsewhere against each other; this checks the lists against the rules.

mod common;

use common::{assert_agrees_everywhere, playout_boards, suite_boards};
use kogge_chess::{Board, Move};
use kogge_gpu::{Arg, Device};
use kogge_search_gpu::lane_qs::is_noisy;
use kogge_search_gpu::layout::{HISTORY_WORDS, MAX_MOVES, WORKER_LANES};
use kogge_search_gpu::line_table::line_table;
use kogge_search_gpu::{gen_check_source, search_defines};

/// The positions whose lists differ from the CPU's, as messages, and the lists compared.
fn mismatches(device: &Device, boards: &[Board]) -> (usize, Vec<String>) {
    let module = device
        .build(&gen_check_source(), &search_defines())
        .expect("gen_check builds");
    let kernel = module.kernel("gen_check").expect("gen_check is there");
    let lines = device.upload(&line_table()).expect("upload");
    let history = device.upload(&vec![0i32; HISTORY_WORDS]).expect("upload");
    let packed: Vec<[u64; 5]> = boards
        .iter()
        .map(|b| {
            let p = b.pack();
            [p.quad[0], p.quad[1], p.quad[2], p.quad[3], p.state]
        })
        .collect();
    let n = boards.len();
    let boards_buf = device.upload(&packed).expect("upload");
    let out = device.alloc::<u32>(2 * n * MAX_MOVES).expect("alloc");
    let counts = device.alloc::<u32>(2 * n).expect("alloc");
    let groups = n.min(256);
    device
        .launch(
            &kernel,
            groups * WORKER_LANES,
            WORKER_LANES,
            &[
                Arg::buf(&boards_buf),
                Arg::U32(n as u32),
                Arg::buf(&lines),
                Arg::buf(&history),
                Arg::buf(&out),
                Arg::buf(&counts),
            ],
        )
        .expect("gen_check runs");
    let mut lists = vec![0u32; 2 * n * MAX_MOVES];
    let mut lengths = vec![0u32; 2 * n];
    device.read(&out, &mut lists).expect("read");
    device.read(&counts, &mut lengths).expect("read");

    let mut bad = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let legal = board.legal_moves();
        for qs in [false, true] {
            let list = 2 * i + usize::from(qs);
            let len = (lengths[list] as usize).min(MAX_MOVES);
            let keys = &lists[list * MAX_MOVES..list * MAX_MOVES + len];
            let mut got: Vec<u16> = keys.iter().map(|k| (k & 0xffff) as u16).collect();
            let mut want: Vec<u16> = legal
                .as_slice()
                .iter()
                .filter(|&&mv| !qs || board.in_check() || is_noisy(board, mv))
                .map(|mv| mv.raw())
                .collect();
            got.sort_unstable();
            want.sort_unstable();
            let what = if qs { "quiescence" } else { "all" };
            if got != want {
                let missing: Vec<String> = want
                    .iter()
                    .filter(|m| !got.contains(m))
                    .map(|&m| Move::from_raw(m).to_string())
                    .collect();
                let extra: Vec<String> = got
                    .iter()
                    .filter(|m| !want.contains(m))
                    .map(|&m| Move::from_raw(m).to_string())
                    .collect();
                bad.push(format!(
                    "{} ({what}): {len} moves, {} legal; missing {missing:?}, extra {extra:?}",
                    board.to_fen(),
                    want.len()
                ));
            } else if keys.windows(2).any(|w| w[0] <= w[1]) {
                bad.push(format!(
                    "{} ({what}): keys not in descending order",
                    board.to_fen()
                ));
            }
        }
    }
    (2 * n, bad)
}

#[test]
fn suites_match_the_cpu() {
    let boards = suite_boards();
    assert_agrees_everywhere("suites", "lists", |device| mismatches(device, &boards));
}

#[test]
fn playouts_match_the_cpu() {
    let boards = playout_boards();
    assert_agrees_everywhere("random playouts", "lists", |device| {
        mismatches(device, &boards)
    });
}
