//! The GPU search's test of whether a move can give check (kernels/gives_check.h) against the
//! CPU's board, on every device present (PoCL in CI): every legal move of the shared suites and
//! of random playouts. The search skips making the moves it prunes when the test says no check,
//! so a check it missed would make the GPU search prune a check the CPU search keeps.

mod common;

use common::{devices, playout_boards, run_per_item, suite_boards};
use kogge_chess::Board;
use kogge_gpu::{Arg, Device};
use kogge_search_gpu::line_table::line_table;
use kogge_search_gpu::{gives_check_check_source, search_defines};

/// What the device said of every legal move of `boards`.
struct Answers {
    /// Moves that give check.
    checks: usize,
    /// Moves that give no check.
    quiet: usize,
    /// Moves that give no check but were answered "may" (allowed, but each costs a made move).
    quiet_flagged: usize,
    /// Checks answered "no check": each one is a bug.
    missed: Vec<String>,
}

fn answers(device: &Device, boards: &[Board]) -> Answers {
    let module = device
        .build(&gives_check_check_source(), &search_defines())
        .expect("gives_check_check builds");
    let kernel = module
        .kernel("gives_check_check")
        .expect("gives_check_check is there");
    let lines = device.upload(&line_table()).expect("upload");

    let (mut packed, mut moves, mut expected) = (vec![], vec![], vec![]);
    for board in boards {
        let p = board.pack();
        for mv in &board.legal_moves() {
            let mut child = *board;
            child.play(*mv);
            packed.push([p.quad[0], p.quad[1], p.quad[2], p.quad[3], p.state]);
            moves.push(u32::from(mv.raw()));
            expected.push((*board, *mv, child.in_check()));
        }
    }
    let n = moves.len();
    let boards_buf = device.upload(&packed).expect("upload");
    let moves_buf = device.upload(&moves).expect("upload");
    let got = run_per_item(
        device,
        &kernel,
        n,
        &[
            Arg::buf(&boards_buf),
            Arg::buf(&moves_buf),
            Arg::U32(n as u32),
            Arg::buf(&lines),
        ],
    );
    let mut a = Answers {
        checks: 0,
        quiet: 0,
        quiet_flagged: 0,
        missed: Vec::new(),
    };
    for ((board, mv, check), &may) in expected.iter().zip(&got) {
        match (check, may != 0) {
            (true, true) => a.checks += 1,
            (true, false) => a.missed.push(format!("{} {mv}", board.to_fen())),
            (false, flagged) => {
                a.quiet += 1;
                a.quiet_flagged += usize::from(flagged);
            }
        }
    }
    a
}

fn assert_sound(what: &str, boards: &[Board]) {
    for device in devices() {
        let a = answers(&device, boards);
        eprintln!(
            "{}: {what}: {} checks, {} other moves of which {} flagged",
            device.info().name,
            a.checks,
            a.quiet,
            a.quiet_flagged
        );
        assert!(a.checks > 0, "{what}: no checking moves to compare");
        assert!(
            a.missed.is_empty(),
            "{what}: {} checks answered 'no check' on {}:\n{}",
            a.missed.len(),
            device.info().name,
            a.missed
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        // The test is worth having only if it clears most moves: direct checks are exact, so
        // only discoveries that are not and the rare special moves may be flagged.
        assert!(
            a.quiet_flagged * 20 < a.quiet,
            "{what}: {} of {} moves without check flagged as possible checks",
            a.quiet_flagged,
            a.quiet
        );
    }
}

#[test]
fn suites_never_miss_a_check() {
    assert_sound("suites", &suite_boards());
}

#[test]
fn playouts_never_miss_a_check() {
    assert_sound("random playouts", &playout_boards());
}
