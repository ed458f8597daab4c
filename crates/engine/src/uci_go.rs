//! The UCI `go` command's arguments, turned into search [`Limits`] (or a perft request). Every
//! argument is checked: a malformed `go` is an error, rather than a search with a limit silently
//! missing (the UCI loop reports it and answers with a one-ply search).

use crate::perft_cmd;
use anyhow::{Context, Result, bail};
use kogge_chess::{Board, Color, Move};
use kogge_search::{Clock, Limits};
use std::time::Duration;

/// What a `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    Search(Limits),
    /// `go perft N`: a divide of the current position (a Stockfish extension).
    Perft(u32),
}

/// The words `go` understands; `searchmoves` reads moves until the next of them.
const KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses the words after `go` for a search from `board`.
pub fn parse_go(words: &[&str], board: &Board) -> Result<Go> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut moves_to_go = None;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        let mut value = |what: &str| -> Result<&str> {
            let v = words
                .get(i)
                .copied()
                .with_context(|| format!("'go {word}' needs {what}"))?;
            i += 1;
            Ok(v)
        };
        match word {
            "wtime" => wtime = Some(millis(word, value("a time in milliseconds")?)?),
            "btime" => btime = Some(millis(word, value("a time in milliseconds")?)?),
            "winc" => winc = Some(millis(word, value("a time in milliseconds")?)?),
            "binc" => binc = Some(millis(word, value("a time in milliseconds")?)?),
            "movetime" => {
                limits.movetime = Some(millis(word, value("a time in milliseconds")?)?);
            }
            "movestogo" => moves_to_go = Some(number::<u32>(word, value("a number of moves")?)?),
            "depth" => limits.depth = Some(number::<u32>(word, value("a depth in plies")?)?),
            "nodes" => limits.nodes = Some(number::<u64>(word, value("a number of nodes")?)?),
            "mate" => limits.mate = Some(number::<u32>(word, value("a number of moves")?)?),
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while let Some(&text) = words.get(i) {
                    if KEYWORDS.contains(&text) {
                        break;
                    }
                    let mv: Move = board
                        .parse_uci(text)
                        .with_context(|| format!("go searchmoves: '{text}'"))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
                if limits.searchmoves.is_empty() {
                    bail!("'go searchmoves' needs at least one move");
                }
            }
            "perft" => {
                let depth = number::<u32>(word, value("a depth")?)?;
                if depth > perft_cmd::MAX_DEPTH {
                    bail!(
                        "perft depth {depth} is above the limit of {}",
                        perft_cmd::MAX_DEPTH
                    );
                }
                return Ok(Go::Perft(depth));
            }
            other => bail!("unknown 'go' argument '{other}'"),
        }
    }
    let (time, increment) = match board.side_to_move() {
        Color::White => (wtime, winc),
        Color::Black => (btime, binc),
    };
    // The clock counts only with our own time; an increment or `movestogo` alone means nothing.
    if let Some(time) = time {
        limits.clock = Some(Clock {
            time,
            increment: increment.unwrap_or(Duration::ZERO),
            moves_to_go: moves_to_go.filter(|&n| n > 0),
        });
    }
    Ok(Go::Search(limits))
}

/// A time in milliseconds. Some GUIs send a negative time once the flag has fallen; that is no
/// time at all, not an error.
fn millis(word: &str, text: &str) -> Result<Duration> {
    let ms: i64 = text
        .parse()
        .with_context(|| format!("'go {word}': '{text}' is not a whole number of milliseconds"))?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn number<T: std::str::FromStr>(word: &str, text: &str) -> Result<T> {
    text.parse()
        .ok()
        .with_context(|| format!("'go {word}': '{text}' is not a non-negative whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Result<Go> {
        let words: Vec<&str> = text.split_whitespace().collect();
        parse_go(&words, &Board::startpos())
    }

    fn limits(text: &str) -> Limits {
        match go(text) {
            Ok(Go::Search(l)) => l,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_clock_is_the_side_to_moves() {
        let l = limits("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        assert_eq!(
            l.clock,
            Some(Clock {
                time: Duration::from_millis(1000),
                increment: Duration::from_millis(10),
                moves_to_go: Some(5),
            })
        );
        let black = Board::from_fen("8/8/8/8/8/8/8/k1K5 b - - 0 1").expect("a FEN");
        let Ok(Go::Search(l)) = parse_go(&["wtime", "1000", "btime", "2000"], &black) else {
            panic!("parses");
        };
        assert_eq!(l.clock.map(|c| c.time), Some(Duration::from_millis(2000)));
        assert_eq!(
            limits("wtime -50").clock.map(|c| c.time),
            Some(Duration::ZERO)
        );
        assert_eq!(limits("btime 100 winc 10").clock, None);
    }

    #[test]
    fn limits_and_flags() {
        let l = limits("depth 7 nodes 5000 mate 3 movetime 250 infinite ponder");
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nodes, Some(5000));
        assert_eq!(l.mate, Some(3));
        assert_eq!(l.movetime, Some(Duration::from_millis(250)));
        assert!(l.infinite && l.ponder);
        assert_eq!(limits(""), Limits::default());
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword() {
        let l = limits("searchmoves e2e4 d2d4 depth 3");
        let moves: Vec<String> = l.searchmoves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["e2e4", "d2d4"]);
        assert_eq!(l.depth, Some(3));
        assert!(go("searchmoves e2e5").is_err());
        assert!(go("searchmoves").is_err());
    }

    #[test]
    fn perft_and_errors() {
        assert_eq!(go("perft 3").ok(), Some(Go::Perft(3)));
        for bad in [
            "perft",
            "perft 99",
            "depth",
            "depth x",
            "depth -1",
            "wtime ten",
            "nodes 1e6",
            "sideways",
        ] {
            assert!(go(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
