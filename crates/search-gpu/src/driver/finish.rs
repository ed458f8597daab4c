//! Which finished worker ends an iteration, and whose result it takes: the host's side of the
//! kernel's `FINISH_QUORUM`, `FINISH_PICK` and `helper_ends` (search_state.h), read after each
//! slice from the workers' results.

/// Which finished worker's result an iteration takes, as the kernel's `FINISH_PICK` says
/// (search_state.h): with one finisher (`FINISH_QUORUM` 1) all three take the same, but for
/// the rare slice in which several finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FinishPick {
    /// The deepest, then the lowest-numbered worker.
    Deepest,
    /// Worker 0's if it finished, else the lowest value (then the deepest, the lowest worker).
    Lowest,
    /// Worker 0's if it finished, else the root move most finishers name, and of those the
    /// result with the lowest value.
    Vote,
}

impl FinishPick {
    pub(super) fn from_code(code: u32) -> Option<FinishPick> {
        match code {
            0 => Some(FinishPick::Deepest),
            1 => Some(FinishPick::Lowest),
            2 => Some(FinishPick::Vote),
            _ => None,
        }
    }
}

/// One finished worker, as [`pick_finisher`] weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Finished {
    pub(super) worker: usize,
    pub(super) depth: u32,
    pub(super) score: i32,
    pub(super) best: u32,
}

/// Whether the finished workers `done` end the iteration: `quorum` of them, or worker 0 among
/// them, or any once no worker is left `running`.
pub(super) fn iteration_over(done: &[Finished], quorum: usize, running: bool) -> bool {
    !done.is_empty() && (done.len() >= quorum || done.iter().any(|f| f.worker == 0) || !running)
}

/// The finished worker whose result the iteration takes under `pick`; `None` for none.
pub(super) fn pick_finisher(done: &[Finished], pick: FinishPick) -> Option<Finished> {
    let deepest = |f: &Finished| (f.depth, std::cmp::Reverse(f.worker));
    if pick != FinishPick::Deepest
        && let Some(main) = done.iter().find(|f| f.worker == 0)
    {
        return Some(*main);
    }
    let lowest = |candidates: &mut dyn Iterator<Item = &Finished>| {
        candidates
            .min_by_key(|f| (f.score, std::cmp::Reverse(deepest(f))))
            .copied()
    };
    match pick {
        FinishPick::Deepest => done.iter().max_by_key(|f| deepest(f)).copied(),
        FinishPick::Lowest => lowest(&mut done.iter()),
        FinishPick::Vote => {
            let votes = |m: u32| done.iter().filter(|f| f.best == m).count();
            let most = done.iter().map(|f| votes(f.best)).max()?;
            lowest(&mut done.iter().filter(|f| votes(f.best) == most))
        }
    }
}

/// The value of a root move packed by the kernel's `root_pack` (value offset by 32768 in the high
/// half, the move in the low; 0 is none).
fn root_unpack(packed: u32) -> Option<(i32, u16)> {
    (packed != 0).then(|| ((packed >> 16) as i32 - 32768, packed as u16))
}

/// The kernel's `helper_ends` for a helper of the asked depth that finished with `value` and
/// `best`, against worker 0's first root move (`first`) and the best root move any worker found
/// (`seen`): it may end the iteration only once worker 0 has searched its first move, not with a
/// value above worker 0's for that move by more than `margin`, and not if another root move was
/// found better than its own.
pub(super) fn helper_may_end(first: u32, seen: u32, value: i32, best: u16, margin: i32) -> bool {
    let Some((first_value, first_move)) = root_unpack(first) else {
        return false;
    };
    if first_move == best && value > first_value + margin {
        return false;
    }
    root_unpack(seen).is_none_or(|(v, m)| m == best || v <= value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(worker: usize, depth: u32, score: i32, best: u32) -> Finished {
        Finished {
            worker,
            depth,
            score,
            best,
        }
    }

    #[test]
    fn a_quorum_of_finishers_or_worker_0_ends_the_iteration() {
        let helpers = [finished(3, 12, 5, 1), finished(6, 12, 5, 1)];
        assert!(!iteration_over(&[], 1, true));
        assert!(!iteration_over(&[], 3, false));
        assert!(iteration_over(&helpers[..1], 1, true));
        assert!(!iteration_over(&helpers, 3, true));
        assert!(iteration_over(&helpers, 2, true));
        // Worker 0 ends it alone; so does the last worker to stop running.
        assert!(iteration_over(&[finished(0, 12, 5, 1)], 3, true));
        assert!(iteration_over(&helpers, 3, false));
    }

    #[test]
    fn the_deepest_finisher_is_taken_by_default_then_the_lowest_worker() {
        let done = [
            finished(7, 12, -30, 1),
            finished(3, 13, 40, 2),
            finished(5, 13, 10, 3),
        ];
        assert_eq!(pick_finisher(&done, FinishPick::Deepest), Some(done[1]));
        assert_eq!(pick_finisher(&[], FinishPick::Deepest), None);
    }

    #[test]
    fn the_lowest_value_is_taken_unless_worker_0_finished() {
        let done = [
            finished(7, 12, 25, 1),
            finished(3, 13, 40, 2),
            finished(5, 12, -10, 3),
        ];
        assert_eq!(pick_finisher(&done, FinishPick::Lowest), Some(done[2]));
        let with_main = [done[0], finished(0, 12, 90, 4), done[2]];
        assert_eq!(
            pick_finisher(&with_main, FinishPick::Lowest),
            Some(with_main[1])
        );
        assert_eq!(
            pick_finisher(&with_main, FinishPick::Vote),
            Some(with_main[1])
        );
    }

    #[test]
    fn the_vote_takes_the_move_most_finishers_name_at_its_lowest_value() {
        let done = [
            finished(7, 12, 25, 1),
            finished(3, 12, 40, 2),
            finished(5, 12, 30, 2),
            finished(9, 12, -50, 3),
        ];
        assert_eq!(pick_finisher(&done, FinishPick::Vote), Some(done[2]));
        // No majority: the lowest value of all.
        assert_eq!(pick_finisher(&done[..2], FinishPick::Vote), Some(done[0]));
    }

    /// The kernel's `root_pack`.
    fn pack(value: i32, m: u16) -> u32 {
        (((value + 32768) as u32) << 16) | u32::from(m)
    }

    #[test]
    fn a_helper_ends_an_iteration_only_where_worker_0_agrees() {
        let (d2d3, d2d4) = (0x2cb, 0x6cb);
        assert_eq!(root_unpack(pack(-31, d2d3)), Some((-31, d2d3)));
        // Worker 0 has not finished its first move: no helper may end the iteration.
        assert!(!helper_may_end(0, 0, 25, d2d3, 0));
        // The same move, valued as worker 0 did or lower: it may.
        assert!(helper_may_end(pack(25, d2d3), 0, 25, d2d3, 0));
        assert!(helper_may_end(pack(25, d2d3), pack(25, d2d3), 20, d2d3, 0));
        // Valued higher than worker 0 did (it searched the rest against a higher alpha): not
        // unless within the margin.
        assert!(!helper_may_end(pack(25, d2d3), 0, 34, d2d3, 0));
        assert!(helper_may_end(pack(25, d2d3), 0, 34, d2d3, 10));
        // Another move found better than its best by some worker: it may not; found no better,
        // or its own: it may.
        assert!(!helper_may_end(pack(25, d2d3), pack(43, d2d4), 25, d2d3, 0));
        assert!(helper_may_end(pack(25, d2d3), pack(24, d2d4), 25, d2d3, 0));
        assert!(helper_may_end(pack(25, d2d3), pack(43, d2d4), 43, d2d4, 0));
        // A move other than worker 0's first, at any value above it, is a discovery: it may.
        assert!(helper_may_end(pack(25, d2d3), 0, 60, d2d4, 0));
    }
}
