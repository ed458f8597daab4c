//! The xboard time controls — `level` (conventional or incremental clocks), `st` (seconds per
//! move), `sd` (a depth limit), `time` and `otim` (the clocks' readings) — and the search
//! [`Limits`] they make for the engine's next move.

use anyhow::{Context, Result, bail};
use kogge_chess::Board;
use kogge_search::{Clock, Limits};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per session of a conventional clock; 0 for the whole game (incremental).
    moves_per_session: u32,
    /// The session's time.
    base: Duration,
    increment: Duration,
    /// `st`: exactly this long per move, instead of the clock.
    move_time: Option<Duration>,
    /// `sd`: no deeper than this.
    depth: Option<u32>,
    /// The engine's clock as `time` last gave it.
    engine_time: Option<Duration>,
}

impl Default for TimeControl {
    /// xboard's own default, 40 moves in 5 minutes, for a session that never sends `level`.
    fn default() -> Self {
        TimeControl {
            moves_per_session: 40,
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
            move_time: None,
            depth: None,
            engine_time: None,
        }
    }
}

impl TimeControl {
    /// `new`: the clocks start again and the depth limit goes; the time control stays (xboard
    /// sends it again anyway).
    pub fn new_game(&mut self) {
        self.depth = None;
        self.engine_time = None;
    }

    /// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds. Characters after the
    /// number in BASE are ignored, as the protocol asks (it may one day append more there).
    pub fn level(&mut self, args: &str) -> Result<()> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let &[mps, base, inc] = words.as_slice() else {
            bail!("expected 'level MOVES BASE INCREMENT'");
        };
        let moves_per_session: u32 = mps
            .parse()
            .ok()
            .with_context(|| format!("moves per session '{mps}' is not a whole number"))?;
        let base = parse_base(base)?;
        let increment = seconds(inc).with_context(|| format!("increment '{inc}'"))?;
        self.moves_per_session = moves_per_session;
        self.base = base;
        self.increment = increment;
        self.move_time = None;
        Ok(())
    }

    /// `st N`: N seconds per move.
    pub fn st(&mut self, args: &str) -> Result<()> {
        let t = seconds(args.trim()).with_context(|| format!("st '{}'", args.trim()))?;
        if t.is_zero() {
            bail!("st needs a time above zero");
        }
        self.move_time = Some(t);
        Ok(())
    }

    /// `sd N`: search no deeper than N plies.
    pub fn sd(&mut self, args: &str) -> Result<()> {
        let d: u32 = match args.trim().parse() {
            Ok(d) if d >= 1 => d,
            _ => bail!("sd '{}' is not a depth of at least 1", args.trim()),
        };
        self.depth = Some(d);
        Ok(())
    }

    /// `time N`: the engine's clock, in centiseconds. A negative reading (the flag fell) is no
    /// time at all.
    pub fn time(&mut self, args: &str) -> Result<()> {
        self.engine_time = Some(centiseconds(args)?);
        Ok(())
    }

    /// The limits for the engine's move in `board`.
    pub fn limits(&self, board: &Board) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(t) = self.move_time {
            limits.movetime = Some(t);
        } else {
            let moves_to_go = (self.moves_per_session > 0).then(|| {
                // Moves already made in this session, counted from the move number (a game set
                // up with `setboard` counts from its FEN's number).
                let played = u32::from(board.fullmove_number().max(1) - 1);
                self.moves_per_session - played % self.moves_per_session
            });
            limits.clock = Some(Clock {
                time: self.engine_time.unwrap_or(self.base),
                increment: self.increment,
                moves_to_go,
            });
        }
        limits
    }
}

/// A clock reading in centiseconds (`time`).
fn centiseconds(args: &str) -> Result<Duration> {
    let text = args.trim();
    let cs: i64 = text
        .parse()
        .ok()
        .with_context(|| format!("'{text}' is not a whole number of centiseconds"))?;
    Ok(Duration::from_millis(cs.max(0) as u64 * 10))
}

/// Non-negative seconds, whole or not.
fn seconds(text: &str) -> Result<Duration> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => bail!("'{text}' is not a number of seconds"),
    }
}

/// BASE of `level`: minutes, or `min:sec`, followed by anything.
fn parse_base(text: &str) -> Result<Duration> {
    let number: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    let (min, sec) = number.split_once(':').unwrap_or((&number, "0"));
    let minutes = seconds(min).with_context(|| format!("base time '{text}'"))?;
    let secs = seconds(sec).with_context(|| format!("base time '{text}'"))?;
    Ok(minutes * 60 + secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        let mut tc = TimeControl::default();
        tc.level("40 5 0").expect("parses");
        assert_eq!(tc.base, Duration::from_secs(300));
        tc.level("0 0:30 2").expect("parses");
        assert_eq!(
            (tc.moves_per_session, tc.base, tc.increment),
            (0, Duration::from_secs(30), Duration::from_secs(2))
        );
        tc.level("0 2+5 0.5").expect("extra characters are ignored");
        assert_eq!(tc.base, Duration::from_secs(120));
        assert_eq!(tc.increment, Duration::from_millis(500));
        for bad in ["", "40 5", "x 5 0", "40 y 0", "40 5 z", "40 5 0 1"] {
            assert!(tc.level(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_clock_counts_the_moves_to_the_control() {
        let mut tc = TimeControl::default();
        tc.level("40 5 0").expect("parses");
        tc.time("6000").expect("parses");
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 11").expect("a FEN");
        let clock = tc.limits(&board).clock.expect("a clock");
        assert_eq!(clock.time, Duration::from_secs(60));
        assert_eq!(clock.moves_to_go, Some(30));
        tc.level("0 1 1").expect("parses");
        assert_eq!(tc.limits(&board).clock.and_then(|c| c.moves_to_go), None);
    }

    #[test]
    fn st_and_sd() {
        let mut tc = TimeControl::default();
        tc.st("2").expect("parses");
        tc.sd("6").expect("parses");
        let limits = tc.limits(&Board::startpos());
        assert_eq!(limits.movetime, Some(Duration::from_secs(2)));
        assert_eq!((limits.depth, limits.clock), (Some(6), None));
        tc.new_game();
        assert_eq!(tc.limits(&Board::startpos()).depth, None);
        assert!(tc.st("0").is_err() && tc.sd("0").is_err() && tc.time("soon").is_err());
        tc.time("-20").expect("a fallen flag is no time");
        assert_eq!(tc.engine_time, Some(Duration::ZERO));
    }
}
