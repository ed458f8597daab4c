//! The GPU search on every device present (PoCL where there is no GPU): legal moves, mates
//! found, iterations that agree with what the position demands.

mod common;

use common::{board, open_all_finishing};
use kogge_chess::Board;
use kogge_search_gpu::driver::Outcome;
use kogge_search_gpu::{ClockOptions, Finisher, GpuSearch, GpuSearchOptions, ParallelMode};

fn open_all(workers: usize) -> Vec<GpuSearch> {
    open_all_with(workers, ParallelMode::Lazy)
}

fn open_all_with(workers: usize, mode: ParallelMode) -> Vec<GpuSearch> {
    open_all_finishing(workers, mode, Finisher::Main)
}

fn search_to(gpu: &mut GpuSearch, b: &Board, depth: i32) -> kogge_search_gpu::Iteration {
    let done = common::iterations(gpu, b, depth);
    for it in &done {
        eprintln!(
            "depth {} score {} nodes {} pv {:?}",
            it.depth,
            it.score,
            it.nodes,
            it.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()
        );
    }
    done.into_iter().last().unwrap()
}

#[test]
fn start_position_gives_a_legal_line() {
    for mode in ParallelMode::ALL {
        for mut gpu in open_all_with(2, mode) {
            let b = Board::startpos();
            let it = search_to(&mut gpu, &b, 5);
            assert!(b.legal_moves().contains(it.best), "{mode:?}: {it:?}");
            assert!(it.depth >= 5 && !it.pv.is_empty(), "{mode:?}: {it:?}");
            assert!(it.score.abs() < 200, "{mode:?}: {it:?}");
        }
    }
}

#[test]
fn finds_scholars_mate() {
    let b = board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    for mut gpu in open_all(2) {
        let it = search_to(&mut gpu, &b, 3);
        assert_eq!(it.best.to_string(), "h5f7");
        assert_eq!(it.score, 32000 - 1, "mate in one");
        assert_eq!(it.pv, vec![it.best]);
    }
}

#[test]
fn a_mate_on_the_fiftieth_move_is_a_mate() {
    // Ra8 mates and is the hundredth half-move without a capture or a pawn move: the rule
    // makes other positions draws, not a checkmate (as the CPU search's is_draw).
    let b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    for mut gpu in open_all(1) {
        let it = search_to(&mut gpu, &b, 3);
        assert_eq!(it.best.to_string(), "a1a8", "{it:?}");
        assert_eq!(it.score, 32000 - 1, "mate in one: {it:?}");
    }
}

#[test]
fn slices_do_not_change_the_search() {
    // Black mates in two (WAC); one worker, so the search is deterministic.
    let b = board("4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1");
    for mut gpu in open_all(1) {
        let mut runs = Vec::new();
        for slice in [Some(1_000_000), Some(7), Some(1)] {
            gpu.set_slice_nodes(slice);
            gpu.clear().unwrap();
            let it = search_to(&mut gpu, &b, 6);
            runs.push((it.nodes, it.tt_cutoffs, it.etc_cutoffs, it.score, it.best));
        }
        assert!(runs.iter().all(|r| *r == runs[0]), "{runs:?}");
        assert_eq!(runs[0].3, 32000 - 3, "mate in two");
    }
}

#[test]
fn a_search_again_on_its_own_table_ends_nodes_on_it() {
    // The second search of the same position finds the first one's results in the table: its
    // root moves end on their bounds as soon as entered, and it needs fewer nodes. The counts
    // are the same whether a launch runs the whole search or one node (a worker's count is
    // kept across suspensions).
    let b = Board::startpos();
    for mut gpu in open_all(1) {
        let mut runs = Vec::new();
        for slice in [Some(1_000_000), Some(1)] {
            gpu.set_slice_nodes(slice);
            gpu.clear().unwrap();
            let first = search_to(&mut gpu, &b, 6);
            let again = search_to(&mut gpu, &b, 6);
            assert!(first.tt_cutoffs < first.nodes, "{first:?}");
            assert!(again.tt_cutoffs >= 10, "{again:?}");
            assert!(again.nodes < first.nodes, "{first:?} {again:?}");
            runs.push((first.nodes, first.tt_cutoffs, again.nodes, again.tt_cutoffs));
        }
        assert_eq!(runs[0], runs[1]);
    }
}

#[test]
fn a_childs_bound_in_the_table_cuts_its_parent() {
    // ETC: in a middlegame searched a few plies, some nodes outside the PV find a child bounded
    // at or below -beta in the table before searching a move, and end there. The count is kept
    // across suspensions like the others, and the search still finds the best move it did.
    let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for mut gpu in open_all(1) {
        let mut runs = Vec::new();
        for slice in [Some(1_000_000), Some(3)] {
            gpu.set_slice_nodes(slice);
            gpu.clear().unwrap();
            let it = search_to(&mut gpu, &b, 8);
            assert!(it.etc_cutoffs > 0 && it.etc_cutoffs < it.nodes, "{it:?}");
            runs.push((it.nodes, it.tt_cutoffs, it.etc_cutoffs, it.score, it.best));
        }
        assert_eq!(runs[0], runs[1]);
        eprintln!("{runs:?}");
    }
}

#[test]
fn every_worker_proves_mates_across_slices() {
    // WAC mates in two and three. Any worker may end an iteration, and slices of 16 nodes
    // suspend and resume every worker hundreds of times: with the saved stacks packed at their
    // size, PoCL returned the helpers' stacks corrupted and their results missed these mates.
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
        ("4kn2/r4p1r/p3bQ2/q1nNP1Np/1p5P/8/PPP3P1/2KR3R w - - 0 1", 2),
        ("4R3/4q1kp/6p1/1Q3b2/1P1b1P2/6KP/8/8 b - - 0 1", 3),
    ];
    for (mode, finisher) in [
        (ParallelMode::Rmo, Finisher::Any),
        (ParallelMode::AbdadaRmo, Finisher::Any),
        (ParallelMode::AbdadaRmo, Finisher::Checked),
        (ParallelMode::AbdadaRmo, Finisher::Closing),
    ] {
        for mut gpu in open_all_finishing(2, mode, finisher) {
            gpu.set_slice_nodes(Some(16));
            for (fen, moves) in mates {
                gpu.clear().unwrap();
                let it = search_to(&mut gpu, &board(fen), 7);
                assert_eq!(
                    it.score,
                    32000 - (2 * moves - 1),
                    "{mode:?}, {finisher:?}, worker {}: {fen}",
                    it.worker
                );
            }
        }
    }
}

#[test]
fn an_open_search_changes_its_finisher_to_checked_and_back() {
    // Only a kernel built for `checked` holds its code, so the change rebuilds the kernel of the
    // open search, keeping its buffers: the search must go on as before, mates proved.
    let (fen, moves) = ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3);
    for mut gpu in open_all_finishing(2, ParallelMode::AbdadaRmo, Finisher::Any) {
        gpu.set_slice_nodes(Some(16));
        for finisher in [Finisher::Checked, Finisher::Any, Finisher::Main] {
            gpu.set_finisher(finisher).expect("the kernel rebuilds");
            gpu.clear().unwrap();
            let it = search_to(&mut gpu, &board(fen), 7);
            assert_eq!(it.score, 32000 - (2 * moves - 1), "{finisher:?}");
        }
    }
}

#[test]
fn closing_has_checked_end_the_iterations_the_host_calls_last() {
    // `closing` runs `any` until the host says the next iterations are likely the last, then
    // `checked`, in the same kernel (built with checked's code); a new search starts with `any`.
    let (fen, moves) = ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3);
    for mut gpu in open_all_finishing(2, ParallelMode::AbdadaRmo, Finisher::Closing) {
        gpu.set_slice_nodes(Some(16));
        assert_eq!(gpu.iteration_finisher(), Finisher::Any);
        for closing_from in [1, 8, 5] {
            gpu.clear().unwrap();
            gpu.new_search(&[]).unwrap();
            assert_eq!(gpu.iteration_finisher(), Finisher::Any);
            let mut last = None;
            for depth in 1..=7 {
                gpu.set_closing(depth >= closing_from);
                let rule = if depth >= closing_from {
                    Finisher::Checked
                } else {
                    Finisher::Any
                };
                assert_eq!(gpu.iteration_finisher(), rule);
                match gpu.iterate(&board(fen), depth, -32001, 32001, &mut |_| false) {
                    Ok(Outcome::Done(it)) => last = Some(it),
                    other => panic!("closing from depth {closing_from}: {other:?}"),
                }
            }
            let it = last.unwrap();
            assert_eq!(
                it.score,
                32000 - (2 * moves - 1),
                "closing from {closing_from}"
            );
        }
        // A new search starts with `any` again.
        gpu.new_search(&[]).unwrap();
        assert_eq!(gpu.iteration_finisher(), Finisher::Any);
        // Leaving `closing` for `checked` keeps the kernel; for `any`, it is rebuilt without.
        gpu.set_finisher(Finisher::Checked).unwrap();
        gpu.set_finisher(Finisher::Any).unwrap();
        assert_eq!(gpu.iteration_finisher(), Finisher::Any);
    }
}

#[test]
fn worker_0_ending_iterations_alone_proves_mates_across_shared_slices() {
    // Several workers share each slice's node budget. Where only worker 0 may end an iteration,
    // helpers that finish first drop out and leave the budget to fewer workers: worker 0 must
    // still get its turns and prove the mates itself.
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
    ];
    for mut gpu in open_all_finishing(4, ParallelMode::AbdadaRmo, Finisher::Main) {
        worker_0_proves(&mut gpu, &mates);
    }
}

/// In slices of 16 nodes, each from a cleared table, to depth 7: every mate in `moves` proved by
/// worker 0.
fn worker_0_proves(gpu: &mut GpuSearch, mates: &[(&str, i32)]) {
    gpu.set_slice_nodes(Some(16));
    for &(fen, moves) in mates {
        gpu.clear().unwrap();
        let it = search_to(gpu, &board(fen), 7);
        assert_eq!(it.worker, 0, "{fen}");
        assert_eq!(it.score, 32000 - (2 * moves - 1), "{fen}");
    }
}

#[test]
fn ybwc_helpers_take_moves_from_split_points_and_mates_are_proved() {
    // Worker 0 searches the root; the helpers have nothing to do but what split points hand
    // them. Slices of 16 nodes suspend owners waiting for helpers, and helpers in the middle of
    // a split point's move, hundreds of times: the mates must still be proved, by worker 0, and
    // the helpers must have searched nodes of their own.
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
        ("4kn2/r4p1r/p3bQ2/q1nNP1Np/1p5P/8/PPP3P1/2KR3R w - - 0 1", 2),
    ];
    for mut gpu in open_all_finishing(4, ParallelMode::Ybwc, Finisher::Main) {
        worker_0_proves(&mut gpu, &mates);
        // A quiet middlegame, deep enough for split points (SPLIT_MIN_DEPTH 2).
        gpu.clear().unwrap();
        let b = board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
        let it = search_to(&mut gpu, &b, 8);
        assert!(b.legal_moves().contains(it.best), "{it:?}");
        assert!(it.score.abs() < 300, "{it:?}");
        let nodes = gpu.worker_nodes();
        let helpers: u64 = nodes[1..].iter().sum();
        assert!(helpers > 0, "the helpers searched nothing: {nodes:?}");
    }
}

/// The game's keys from `fen` through `moves` (UCI), each position before the move played from
/// it, and the position reached.
fn game(fen: &str, moves: &[&str]) -> (Vec<u64>, Board) {
    let mut b = board(fen);
    let mut keys = Vec::new();
    for text in moves {
        let mv = b.parse_uci(text).expect("a legal move");
        keys.push(b.hash());
        b.play(mv);
    }
    (keys, b)
}

#[test]
fn a_position_seen_once_before_the_root_is_not_a_draw() {
    // White, a queen and a rook down, has a perpetual check: Qe8+ Kh7 Qh5+ Kg8 (each reply
    // forced). At depth 1 the search sees Qe8+ Kh7, back in the position two plies before the
    // root. Once in the game, that is no draw (only a repetition inside the search, or a third
    // occurrence, is one): the value is the lost material's. Twice, it is a draw: 0.
    let start = "4Q3/6pk/8/8/8/2K5/q7/r7 w - - 10 40";
    let cycle = ["e8h5", "h7g8", "h5e8", "g8h7"];
    for mut gpu in open_all(1) {
        for (plies, draw) in [(2, false), (6, true)] {
            let moves: Vec<&str> = cycle.iter().cycle().take(plies).copied().collect();
            let (keys, root) = game(start, &moves);
            gpu.clear().unwrap();
            gpu.new_search(&keys).unwrap();
            let Outcome::Done(it) = gpu
                .iterate(&root, 1, -32001, 32001, &mut |_| false)
                .unwrap()
            else {
                unreachable!()
            };
            if draw {
                assert_eq!(
                    (it.score, it.best.to_string().as_str()),
                    (0, "h5e8"),
                    "{it:?}"
                );
            } else {
                assert!(it.score < -500, "seen once: {it:?}");
            }
        }
    }
}

#[test]
fn a_stopped_iteration_gives_its_best_root_move_so_far() {
    let b = Board::startpos();
    for mut gpu in open_all(1) {
        gpu.set_slice_nodes(Some(64));
        let full = search_to(&mut gpu, &b, 6).nodes;
        // The same iteration again, stopped when most of it is done: by then the first root
        // move has been searched in full.
        gpu.clear().unwrap();
        search_to(&mut gpu, &b, 5);
        let outcome = gpu
            .iterate(&b, 6, -32001, 32001, &mut |nodes| nodes >= full * 3 / 4)
            .unwrap();
        let Outcome::Stopped { partial, .. } = outcome else {
            panic!("not stopped: {outcome:?}")
        };
        let (mv, value) = partial.expect("a root move searched in full");
        assert!(b.legal_moves().contains(mv), "{mv}");
        assert!(value.abs() < 200, "{value}");
        // One worker, worker 0: its result could end the iteration under any finisher, so its
        // move so far carries the kernel's PARTIAL_CLEAN flag.
        assert_eq!(gpu.clean_partial(), partial);
    }
}

#[test]
fn the_root_searches_only_the_moves_it_is_given() {
    // White wins a free queen with Rxd5 unless the host names other root moves (`go
    // searchmoves`, MultiPV's later lines). After a first search Rxd5 is the table's move at the
    // root, which must not be tried first either.
    let b = board("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let rxd5 = b.parse_uci("d2d5").unwrap();
    let named = [b.parse_uci("e1f1").unwrap(), b.parse_uci("d2e2").unwrap()];
    for workers in [1, 4] {
        for mut gpu in open_all_finishing(workers, ParallelMode::AbdadaRmo, Finisher::Any) {
            assert_eq!(search_to(&mut gpu, &b, 4).best, rxd5);
            for given in [&named[..], &named[1..]] {
                gpu.new_search(&[]).unwrap();
                gpu.set_root_moves(given).unwrap();
                for d in 1..=4 {
                    let Outcome::Done(it) =
                        gpu.iterate(&b, d, -32001, 32001, &mut |_| false).unwrap()
                    else {
                        panic!("not stopped")
                    };
                    assert!(
                        given.contains(&it.best) && it.pv.first() == Some(&it.best),
                        "{workers} workers, depth {d}: {it:?}"
                    );
                }
            }
            // A new search searches every move again.
            assert_eq!(search_to(&mut gpu, &b, 4).best, rxd5);
        }
    }
}

#[test]
fn every_line_reports_how_full_the_table_is() {
    // UCI's hashfull only grows during a search (it counts this search's entries), so a GUI
    // that shows it never sees it drop: the aspiration window's bound lines and a stopped
    // iteration's line read the table as the completed lines do (they said 0 once).
    use kogge_search::{Bound, GamePosition, Limits};
    let position = GamePosition::new(Board::startpos());
    for device in common::devices() {
        let options = GpuSearchOptions {
            workers: 1,
            hash_mb: 1,
            mode: ParallelMode::Lazy,
            finisher: Finisher::Main,
        };
        let mut gpu = GpuSearch::with_device(device, options).expect("search kernel builds");
        let (_, infos) = deepen(&mut gpu, &position, &Limits::depth(10));
        let lines: Vec<_> = infos
            .iter()
            .map(|i| (i.depth, i.bound, i.hashfull))
            .collect();
        eprintln!("{lines:?}");
        assert!(
            lines.windows(2).all(|w| w[0].2 <= w[1].2),
            "hashfull went down: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.1 != Bound::Exact && l.2 > 0),
            "no bound line with the table in use: {lines:?}"
        );
    }
}

/// Iterative deepening on `gpu` from `position` within `limits`: the result and every line it
/// reported.
fn deepen(
    gpu: &mut GpuSearch,
    position: &kogge_search::GamePosition,
    limits: &kogge_search::Limits,
) -> (kogge_search::SearchResult, Vec<kogge_search::Info>) {
    let (result, lines, _) = deepen_saying(gpu, position, limits);
    (result, lines)
}

/// As [`deepen`], with the messages (`info string`) the search reported too.
fn deepen_saying(
    gpu: &mut GpuSearch,
    position: &kogge_search::GamePosition,
    limits: &kogge_search::Limits,
) -> (
    kogge_search::SearchResult,
    Vec<kogge_search::Info>,
    Vec<String>,
) {
    use kogge_search::{Report, SearchControl};
    use std::sync::Mutex;
    use std::time::Instant;
    let legal: Vec<_> = position.board.legal_moves().iter().copied().collect();
    let lines = Mutex::new(Vec::new());
    let messages = Mutex::new(Vec::new());
    let sink = |r: Report| match r {
        Report::Pv(info) => lines.lock().unwrap().push(info),
        Report::Message(text) => messages.lock().unwrap().push(text),
        _ => {}
    };
    let result = kogge_search_gpu::iterative_deepening(
        gpu,
        position,
        limits,
        &SearchControl::new(),
        &sink,
        &legal,
        Instant::now(),
        ClockOptions::UNTIMED,
        1,
    )
    .unwrap();
    (
        result,
        lines.into_inner().unwrap(),
        messages.into_inner().unwrap(),
    )
}

/// The (depth, bound, first move) of each line.
fn line_moves(
    infos: &[kogge_search::Info],
) -> Vec<(u32, kogge_search::Bound, Option<kogge_chess::Move>)> {
    infos
        .iter()
        .map(|i| (i.depth, i.bound, i.pv.first().copied()))
        .collect()
}

#[test]
fn a_search_starts_at_the_depth_the_table_holds_for_its_root() {
    // The second search of a position starts at the depth its root's entry holds, not at 1;
    // stopped before its first iteration completes, it plays the entry's move and says so.
    use kogge_search::{GamePosition, Limits};
    let position = GamePosition::new(Board::startpos());
    for mut gpu in open_all(1) {
        assert_eq!(gpu.table_entry(position.board.hash()).unwrap(), None);
        let (first, infos) = deepen(&mut gpu, &position, &Limits::depth(6));
        let lines = line_moves(&infos);
        assert_eq!(lines.first().map(|l| l.0), Some(1), "{lines:?}");
        let entry = gpu
            .table_entry(position.board.hash())
            .unwrap()
            .expect("the root's entry");
        assert!(entry.depth >= 6, "{entry:?}");
        assert_eq!(
            entry.bound,
            kogge_search::Bound::Exact,
            "the root is a PV node"
        );
        assert_eq!(Some(entry.best), first.best);
        assert_eq!(entry.score, first.value);

        let (again, infos) = deepen(&mut gpu, &position, &Limits::depth(8));
        let lines = line_moves(&infos);
        assert_eq!(
            lines.first().map(|l| l.0),
            Some(entry.depth as u32),
            "{lines:?}"
        );
        assert_eq!(again.depth, 8);

        // One node a launch and a node limit of one: stopped after the first launch, with no
        // root move searched in full yet.
        gpu.set_slice_nodes(Some(1));
        let entry = gpu.table_entry(position.board.hash()).unwrap().unwrap();
        let mut limits = Limits::depth(12);
        limits.nodes = Some(1);
        let (stopped, infos) = deepen(&mut gpu, &position, &limits);
        let lines = line_moves(&infos);
        assert_eq!(stopped.best, Some(entry.best));
        assert_eq!(stopped.depth, 0);
        assert_eq!(
            lines,
            vec![(entry.depth as u32, entry.bound, Some(entry.best))]
        );
    }
}

#[test]
fn a_search_stopped_in_its_first_iteration_names_the_move_it_plays() {
    // A search that starts at its root entry's depth and is stopped before that iteration
    // completes plays a root move searched in full (the entry's is searched first) or the
    // entry's: either way its last line names the move played, so that a GUI shows it. (In the
    // seventy-fifth session's games six such searches on the H200 printed no line at all: the
    // move searched in full was the entry's.)
    use kogge_search::{GamePosition, Limits};
    let board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let position = GamePosition::new(board);
    for mut gpu in open_all(1) {
        deepen(&mut gpu, &position, &Limits::depth(7));
        gpu.set_slice_nodes(Some(32));
        let mut stopped = Vec::new();
        for nodes in [32, 256, 512, 1_024, 2_048, 4_096, 8_192, 16_384] {
            let mut limits = Limits::depth(40);
            limits.nodes = Some(nodes);
            let (result, infos) = deepen(&mut gpu, &position, &limits);
            let lines = line_moves(&infos);
            if result.depth > 0 {
                continue;
            }
            assert_eq!(
                lines.last().and_then(|l| l.2),
                result.best,
                "{nodes} nodes: {lines:?}"
            );
            stopped.push(nodes);
        }
        assert!(
            stopped.len() >= 2,
            "stopped in the first iteration at {stopped:?} nodes"
        );
    }
}

#[test]
fn a_move_no_completed_line_chose_comes_with_a_ponder_move_from_the_table() {
    // A search stopped before its first iteration completes has no line to take a reply from;
    // the table holds one for the position after its move (the depth-7 search searched every
    // root move), and `bestmove ... ponder` names it, as the CPU search's does.
    use kogge_search::{GamePosition, Limits};
    let position = GamePosition::new(board(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ));
    for mut gpu in open_all(1) {
        deepen(&mut gpu, &position, &Limits::depth(7));
        gpu.set_slice_nodes(Some(32));
        let mut stopped = 0;
        for nodes in [32, 256, 512, 1_024, 2_048, 4_096, 8_192, 16_384] {
            let mut limits = Limits::depth(40);
            limits.nodes = Some(nodes);
            let (result, _) = deepen(&mut gpu, &position, &limits);
            if result.depth > 0 {
                continue;
            }
            stopped += 1;
            let mut after = position.board;
            after.play(result.best.unwrap());
            let ponder = result.ponder.expect("a ponder move from the table");
            assert!(after.is_legal(ponder), "{nodes} nodes: {result:?}");
        }
        assert!(
            stopped >= 2,
            "stopped in the first iteration {stopped} times"
        );
    }
}

#[test]
fn a_first_iteration_from_the_entry_past_the_guard_searches_shallower() {
    // A search on a clock that starts at its root entry's depth and has completed nothing by the
    // guard's share of the soft limit (ENTRY_GUARD) searches ENTRY_RETREAT (3) plies shallower
    // and says so. The entry here is a one-move search's (`searchmoves`): depth 9 for all the
    // moves took 0.2 s on PoCL, the guard comes at 52 ms of a 3 s clock (the soft limit 75% of
    // 3 s / 30, scaled by 0.7 for the entry's settled move), the hard limit at 0.4 s.
    use kogge_search::{Bound, Clock, GamePosition, Limits};
    use std::time::Duration;
    let position = GamePosition::new(board(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ));
    let legal = position.board.legal_moves();
    for mut gpu in open_all(1) {
        let mut one_move = Limits::depth(9);
        one_move.searchmoves = vec![legal.iter().copied().next().unwrap()];
        deepen(&mut gpu, &position, &one_move);
        let entry = gpu.table_entry(position.board.hash()).unwrap();
        assert_eq!(entry.map(|e| e.depth), Some(9), "{entry:?}");
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(3_000),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (result, infos, messages) = deepen_saying(&mut gpu, &position, &limits);
        let lines = line_moves(&infos);
        assert_eq!(
            messages,
            [
                "depth 9 from the table's entry not done by 1x the soft limit: searching depth 6 \
              instead"
            ],
            "{lines:?}"
        );
        // A fail high at depth 9 may be reported before the guard; the first exact line is the
        // shallower depth's, if the clock let it complete.
        let first_exact = lines.iter().find(|l| l.1 == Bound::Exact);
        assert!(first_exact.is_none_or(|l| l.0 == 6), "{lines:?} {result:?}");
        assert!(legal.contains(result.best.unwrap()), "{result:?}");
    }
}

#[test]
fn helpers_searching_ahead_never_take_a_search_past_its_depth() {
    // Under the default mode some helpers search each iteration a ply or two deeper
    // (DEEPER_HELPERS), and the first worker to finish ends it: the depths reported never fall
    // (a window that failed at a helper's depth is widened at that depth), and `go depth N` ends
    // at N, whoever finished last. On PoCL a helper ahead seldom finishes first; on the H100 it
    // ended 5% of the iterations of replayed games (thirty-third session).
    use kogge_search::{GamePosition, Limits};
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let position = GamePosition::new(board(fen));
        // Lazy SMP's odd helpers search a ply deeper by their own rule, under the same limit.
        for mode in [ParallelMode::AbdadaRmo, ParallelMode::Lazy] {
            for mut gpu in open_all_finishing(8, mode, Finisher::Any) {
                let (result, infos) = deepen(&mut gpu, &position, &Limits::depth(6));
                let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
                assert!(
                    depths.windows(2).all(|w| w[0] <= w[1]),
                    "{mode:?}: {depths:?}"
                );
                assert_eq!(depths.last(), Some(&6), "{fen} {mode:?}: {depths:?}");
                assert_eq!(result.depth, 6, "{fen} {mode:?}");
            }
        }
    }
}

#[test]
fn a_new_search_drops_the_node_budget_an_earlier_one_left() {
    // A `go nodes` search that fails on the device returns before it clears its budget; the
    // next search, by any caller, must not run its launches on the old budget's slices.
    for mut gpu in open_all_finishing(8, ParallelMode::AbdadaRmo, Finisher::Clean) {
        gpu.set_node_budget(Some(1_000));
        assert_eq!(gpu.node_budget(), Some(1_000));
        gpu.new_search(&[]).expect("new search");
        assert_eq!(gpu.node_budget(), None);
    }
}

#[test]
fn a_node_limit_ends_the_search_near_it_after_depth_1() {
    // `go nodes N`: the launches' slices are capped by what is left of N, and no depth starts
    // once N is spent, so the search ends near N; depth 1 always completes, so that even
    // `go nodes 1` plays a move it searched. Before the cap, 8 workers on PoCL searched 13,735
    // nodes for `go nodes 5000` and 17,155 (depth 8) for `go nodes 1`.
    use kogge_search::{GamePosition, Limits};
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    for mut gpu in open_all_finishing(8, ParallelMode::AbdadaRmo, Finisher::Clean) {
        for (fen, limit) in fens.iter().zip([1u64, 5_000, 20_000]) {
            let position = GamePosition::new(board(fen));
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let (result, infos) = deepen(&mut gpu, &position, &limits);
            assert!(result.depth >= 1, "{fen}, {limit} nodes: {result:?}");
            assert!(
                position.board.legal_moves().contains(result.best.unwrap()),
                "{fen}: {result:?}"
            );
            assert!(!infos.is_empty(), "{fen}, {limit} nodes: no line");
            // Depth 1 takes a few dozen nodes; past it, a last launch overshoots what was left by
            // a fraction (a worker ends its launch after a quarter of its share at the soonest).
            let bound = (limit + limit / 2).max(1_000);
            assert!(
                result.nodes <= bound,
                "{fen}: {} nodes for a limit of {limit} (at most {bound})",
                result.nodes
            );
        }
    }
}

#[test]
fn closing_checks_the_depth_asked_for_and_nothing_under_a_node_limit() {
    // `GPU Finisher closing` through the host's iterative deepening: `go depth N` takes its
    // depth N for the last, so `checked` ends it; a node limit has no last depth the host can
    // name, so `any` ends every iteration.
    use kogge_search::{GamePosition, Limits};
    let position = GamePosition::new(board(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ));
    for mut gpu in open_all_finishing(8, ParallelMode::AbdadaRmo, Finisher::Closing) {
        let (result, infos) = deepen(&mut gpu, &position, &Limits::depth(6));
        assert_eq!(result.depth, 6, "{infos:?}");
        assert!(position.board.legal_moves().contains(result.best.unwrap()));
        assert_eq!(gpu.iteration_finisher(), Finisher::Checked);
        let nodes = Limits {
            nodes: Some(30_000),
            ..Limits::default()
        };
        let (result, _) = deepen(&mut gpu, &position, &nodes);
        assert!(position.board.legal_moves().contains(result.best.unwrap()));
        assert_eq!(gpu.iteration_finisher(), Finisher::Any);
    }
}
