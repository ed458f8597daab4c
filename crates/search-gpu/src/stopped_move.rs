//! The move a stopped iteration of the GPU search stands in with (UCI option `GPU Stopped Move`).
//!
//! When the clock stops an iteration, each worker may have searched some root moves in full at
//! that depth; the last of them to raise its alpha beat every root move it searched before, the
//! previous best among them (tried first). The CPU search plays its main thread's such move. The
//! GPU search, by default, the highest valued over all its workers' (`best`): with 264 workers,
//! each ordering the root's later moves with its own noise, that is the most optimistic of many
//! searches, which may favour a move whose value is too high. At 0.1 and 0.3 s a move in the
//! middlegame the GPU's moves lost 12 and 8 cp a position more than 16 threads' at the same depth
//! (fifty-third session, docs/STRENGTH.md), where at a fixed depth the two were even; `main` and
//! `completed` are there to measure whether this choice is part of that.

/// Which move a stopped iteration stands in with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StoppedMove {
    /// The highest valued of the moves the workers each searched in full at the stopped depth.
    #[default]
    Best,
    /// Worker 0's, as the CPU search takes its main thread's.
    Main,
    /// None: the last completed iteration's move is played (nor does a fail high of the
    /// stopped depth's aspiration window stand in).
    Completed,
}

impl StoppedMove {
    pub const ALL: [StoppedMove; 3] =
        [StoppedMove::Best, StoppedMove::Main, StoppedMove::Completed];

    /// The name the options use: `best`, `main`, `completed`.
    pub fn name(self) -> &'static str {
        match self {
            StoppedMove::Best => "best",
            StoppedMove::Main => "main",
            StoppedMove::Completed => "completed",
        }
    }

    pub fn from_name(name: &str) -> Option<StoppedMove> {
        StoppedMove::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// The stand-in from each worker's move searched in full at the stopped depth and its
    /// value, worker 0's first (a move of 0: none).
    pub fn pick(self, partials: &[(u32, i32)]) -> Option<(u32, i32)> {
        let searched = |&&(m, _): &&(u32, i32)| m != 0;
        match self {
            StoppedMove::Best => partials
                .iter()
                .filter(searched)
                .max_by_key(|(_, v)| *v)
                .copied(),
            StoppedMove::Main => partials.first().filter(searched).copied(),
            StoppedMove::Completed => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in StoppedMove::ALL {
            assert_eq!(StoppedMove::from_name(s.name()), Some(s));
        }
        assert_eq!(StoppedMove::from_name("MAIN"), Some(StoppedMove::Main));
        assert_eq!(StoppedMove::from_name("first"), None);
    }

    #[test]
    fn each_rule_picks_its_move() {
        // Worker 0 found move 7 at 20, worker 1 nothing yet, worker 2 move 9 at 35.
        let partials = [(7, 20), (0, 99), (9, 35)];
        assert_eq!(StoppedMove::Best.pick(&partials), Some((9, 35)));
        assert_eq!(StoppedMove::Main.pick(&partials), Some((7, 20)));
        assert_eq!(StoppedMove::Completed.pick(&partials), None);
        // Worker 0 with none: `main` has none, `best` still the others' best.
        let partials = [(0, 0), (5, -10), (6, -40)];
        assert_eq!(StoppedMove::Main.pick(&partials), None);
        assert_eq!(StoppedMove::Best.pick(&partials), Some((5, -10)));
        assert_eq!(StoppedMove::Best.pick(&[]), None);
    }
}
