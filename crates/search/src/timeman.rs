//! `TimeManager`: turns the clock into two limits.
//!
//! - The *soft* limit is checked between iterations: do not start another iteration past it. The
//!   search scales it by how settled the best move is (see [`TimeManager::soft_limit_passed`]).
//! - The *hard* limit is checked inside the search every few thousand nodes: stop now, whatever
//!   the iteration.
//!
//! Both leave `Move Overhead` aside for the latency between the engine and the clock (the GUI,
//! the operating system, a network). A ponder search has no limit until `ponderhit`, and then
//! counts its time from the `ponderhit`, since that is when the engine's clock started.

use crate::control::SearchControl;
use crate::limits::Limits;
use std::time::{Duration, Instant};

/// Sudden death: plan as if this many moves remain.
const SUDDEN_DEATH_MOVES: u32 = 30;
/// Never plan for more than this many moves, whatever `movestogo` says.
const MAX_MOVES_TO_GO: u32 = 50;

/// UCI `Move Overhead`'s default: the time kept back each move for the link and the GUI, the
/// same for every backend.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// UCI `Slow Mover`'s default, in percent: the soft limit as the time manager sets it.
pub const DEFAULT_SLOW_MOVER: u32 = 100;

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// A fixed time per move (`movetime` without a clock): it is for this move only, so all of
    /// it is used and only the hard limit ends the search.
    fixed: bool,
}

impl TimeManager {
    /// The limits for a search that starts at `start`.
    pub fn new(limits: &Limits, move_overhead: Duration, start: Instant) -> TimeManager {
        let (mut soft, mut hard) = (None, None);
        if let Some(clock) = limits.clock {
            let available = clock
                .time
                .saturating_sub(move_overhead)
                .max(Duration::from_millis(1));
            let moves = clock
                .moves_to_go
                .unwrap_or(SUDDEN_DEATH_MOVES)
                .clamp(1, MAX_MOVES_TO_GO);
            // The last move before a time control may use most of what is left; otherwise keep
            // enough for the moves still to come.
            let (soft_cap, hard_cap) = if moves == 1 { (0.7, 0.85) } else { (0.4, 0.6) };
            let ideal = available / moves + clock.increment * 3 / 4;
            let s = ideal.min(available.mul_f64(soft_cap));
            let h = (s * 4).min(available.mul_f64(hard_cap)).max(s);
            soft = Some(s);
            hard = Some(h);
        }
        if let Some(time) = limits.movetime {
            // A fixed time per move: use it all, less the overhead (but never less than half of
            // it, so that a large overhead cannot turn the search into nothing).
            let t = time.saturating_sub(move_overhead).max(time / 2);
            soft = Some(soft.map_or(t, |s| s.min(t)));
            hard = Some(hard.map_or(t, |h| h.min(t)));
        }
        if limits.infinite {
            soft = None;
            hard = None;
        }
        TimeManager {
            start,
            soft,
            hard,
            fixed: limits.movetime.is_some() && limits.clock.is_none(),
        }
    }

    /// The soft limit scaled by `percent` (UCI `Slow Mover`; 100 leaves it as it is), never past
    /// the hard limit, which stays: below 100 the search ends sooner once a clock's time per
    /// move is spent, above 100 later. A fixed time per move is used in full either way.
    pub fn with_slow_mover(self, percent: u32) -> TimeManager {
        if percent == 100 {
            return self;
        }
        self.with_soft_scale(f64::from(percent) / 100.0)
    }

    /// The soft limit times `scale` (positive), never past the hard limit: `with_slow_mover`
    /// for a backend whose own share of the soft limit is not a whole percent of it (the GPU's
    /// 75% of `Slow Mover`'s, unrounded).
    pub fn with_soft_scale(mut self, scale: f64) -> TimeManager {
        if let Some(soft) = self.soft {
            let scaled = soft.mul_f64(scale.max(0.0));
            self.soft = Some(self.hard.map_or(scaled, |h| scaled.min(h)));
        }
        self
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time that counts against the limits: since `ponderhit` if there was one.
    fn counted(&self, control: &SearchControl) -> Duration {
        match control.ponderhit_at() {
            Some(at) => at.elapsed(),
            None => self.start.elapsed(),
        }
    }

    /// The soft limit, unscaled (None: no time limit).
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit (None: no time limit).
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the search must stop now.
    pub fn hard_limit_passed(&self, control: &SearchControl) -> bool {
        if control.is_pondering() {
            return false;
        }
        self.hard.is_some_and(|h| self.counted(control) >= h)
    }

    /// Whether to start no new iteration. `scale` stretches the soft limit: above 1 when the
    /// best move keeps changing or the score falls, below 1 when it is settled. A clock's time is
    /// shared with the moves to come, so a settled move ends the search early; a fixed time per
    /// move never passes its soft limit (the hard limit ends the search).
    pub fn soft_limit_passed(&self, control: &SearchControl, scale: f64) -> bool {
        if control.is_pondering() || self.fixed {
            return false;
        }
        match (self.soft, self.hard) {
            (Some(s), Some(h)) => self.counted(control) >= s.mul_f64(scale).min(h),
            (Some(s), None) => self.counted(control) >= s.mul_f64(scale),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    fn limits(l: &Limits, overhead: u64) -> (Duration, Duration) {
        let tm = TimeManager::new(l, Duration::from_millis(overhead), Instant::now());
        (tm.soft_limit().unwrap(), tm.hard_limit().unwrap())
    }

    #[test]
    fn sudden_death_spreads_the_clock() {
        let (soft, hard) = limits(&clock(60_000, 0, None), 30);
        assert!(soft >= Duration::from_millis(1500) && soft <= Duration::from_millis(2500));
        assert!(hard >= soft && hard <= Duration::from_millis(36_000));
    }

    #[test]
    fn tiny_clocks_never_spend_what_is_not_there() {
        // 1 s + 10 ms, and the last few milliseconds of a game.
        for ms in [1000, 300, 100, 40, 31, 30, 10, 1, 0] {
            let (soft, hard) = limits(&clock(ms, 10, None), 30);
            let available = Duration::from_millis(ms).saturating_sub(Duration::from_millis(30));
            assert!(soft <= hard);
            assert!(
                hard <= available.mul_f64(0.6).max(Duration::from_millis(1)),
                "{ms} ms: hard {hard:?}"
            );
        }
    }

    #[test]
    fn last_move_before_the_control_may_use_more() {
        let (_, hard_last) = limits(&clock(10_000, 0, Some(1)), 30);
        let (_, hard_many) = limits(&clock(10_000, 0, Some(20)), 30);
        assert!(hard_last > hard_many);
        assert!(hard_last < Duration::from_millis(9_970));
    }

    #[test]
    fn movetime_is_used_less_the_overhead() {
        let (soft, hard) = limits(&Limits::movetime(Duration::from_millis(1000)), 30);
        assert_eq!(soft, Duration::from_millis(970));
        assert_eq!(hard, Duration::from_millis(970));
    }

    #[test]
    fn a_fixed_time_is_used_whatever_the_scale() {
        let control = SearchControl::new();
        let fixed = TimeManager::new(
            &Limits::movetime(Duration::from_millis(2)),
            Duration::ZERO,
            Instant::now(),
        );
        let clocked = TimeManager::new(&clock(2, 0, Some(1)), Duration::ZERO, Instant::now());
        std::thread::sleep(Duration::from_millis(3));
        assert!(!fixed.soft_limit_passed(&control, 0.5));
        assert!(fixed.hard_limit_passed(&control));
        assert!(clocked.soft_limit_passed(&control, 0.5));
    }

    #[test]
    fn slow_mover_scales_the_soft_limit_within_the_hard_one() {
        let l = clock(60_000, 0, None);
        let tm = || TimeManager::new(&l, Duration::from_millis(30), Instant::now());
        let (soft, hard) = (tm().soft_limit().unwrap(), tm().hard_limit().unwrap());
        let half = tm().with_slow_mover(50);
        assert_eq!(half.soft_limit().unwrap(), soft / 2);
        assert_eq!(half.hard_limit().unwrap(), hard);
        assert_eq!(tm().with_slow_mover(100).soft_limit().unwrap(), soft);
        // Ten times the soft limit is more than the hard limit allows.
        assert_eq!(tm().with_slow_mover(1000).soft_limit().unwrap(), hard);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let none = TimeManager::new(&infinite, Duration::ZERO, Instant::now()).with_slow_mover(50);
        assert!(none.soft_limit().is_none());
    }

    #[test]
    fn a_soft_scale_is_not_rounded_to_a_percent() {
        let l = clock(60_000, 0, None);
        let tm = || TimeManager::new(&l, Duration::from_millis(30), Instant::now());
        let (soft, hard) = (tm().soft_limit().unwrap(), tm().hard_limit().unwrap());
        // 33% of 75%: 24.75%, where whole percents gave 24.
        let scaled = tm().with_soft_scale(0.33 * 0.75).soft_limit().unwrap();
        assert_eq!(scaled, soft.mul_f64(0.33 * 0.75));
        assert!(scaled > soft.mul_f64(0.24));
        assert_eq!(tm().with_soft_scale(10.0).soft_limit().unwrap(), hard);
        assert_eq!(
            tm().with_slow_mover(75).soft_limit().unwrap(),
            tm().with_soft_scale(0.75).soft_limit().unwrap()
        );
    }

    #[test]
    fn pondering_suspends_the_limits() {
        let tm = TimeManager::new(&clock(0, 0, None), Duration::ZERO, Instant::now());
        let control = SearchControl::new();
        control.reset(true);
        std::thread::sleep(Duration::from_millis(3));
        assert!(!tm.hard_limit_passed(&control));
        control.ponderhit();
        assert!(!tm.hard_limit_passed(&control));
        std::thread::sleep(Duration::from_millis(3));
        assert!(tm.hard_limit_passed(&control));
    }

    #[test]
    fn infinite_has_no_limit() {
        let mut l = clock(1000, 0, None);
        l.infinite = true;
        let tm = TimeManager::new(&l, Duration::ZERO, Instant::now());
        assert!(tm.hard_limit().is_none() && tm.soft_limit().is_none());
    }
}
