//! `kogge` with no subcommand: a chess engine talking to a GUI on stdin and stdout. The first
//! command decides the protocol — `uci` starts UCI, `xboard` or `protover` starts xboard (CECP
//! version 2), anything else is taken as UCI and answered as such, which suits people typing at
//! a terminal. `kogge uci` and `kogge xboard` skip the guess.

use crate::engine_backend::EngineSettings;
use crate::output::Output;
use crate::{uci, xboard};
use anyhow::Result;
use std::io::{self, BufRead, BufReader};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Decide from the first command.
    Auto,
    Uci,
    Xboard,
}

/// Runs the engine on stdin and stdout until `quit` or the end of input.
pub fn run(protocol: Protocol, settings: EngineSettings) -> Result<()> {
    // A `BufReader` of our own over `Stdin` (not a `StdinLock`) so that xboard can move the
    // reader to its input thread.
    let mut input: Box<dyn BufRead + Send> = Box::new(BufReader::new(io::stdin()));
    let out = Output::stdout();
    let (protocol, first) = match protocol {
        Protocol::Auto => {
            let mut first = None;
            while let Some(line) = read_line(&mut *input)? {
                if !line.trim().is_empty() {
                    first = Some(line);
                    break;
                }
            }
            let Some(first) = first else {
                return Ok(());
            };
            (detect(&first), Some(first))
        }
        chosen => (chosen, None),
    };
    match protocol {
        Protocol::Xboard => xboard::run(first, input, out, settings),
        Protocol::Uci | Protocol::Auto => uci::run(first, &mut *input, out, settings),
    }
}

/// The protocol the first command belongs to.
fn detect(first: &str) -> Protocol {
    match first.split_whitespace().next() {
        Some("xboard" | "protover") => Protocol::Xboard,
        _ => Protocol::Uci,
    }
}

/// One line of input without its line ending, or `None` at the end of input. Bytes that are not
/// UTF-8 are replaced rather than ending the session: a stray byte from a GUI is a bad command,
/// not a reason to stop.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_command_decides() {
        assert_eq!(detect("uci"), Protocol::Uci);
        assert_eq!(detect("xboard"), Protocol::Xboard);
        assert_eq!(detect("protover 2"), Protocol::Xboard);
        assert_eq!(detect("position startpos"), Protocol::Uci);
        assert_eq!(detect("  isready"), Protocol::Uci);
    }

    #[test]
    fn lines_lose_their_endings_and_bad_bytes() {
        let mut input: &[u8] = b"uci\r\nisready\n\xffgo\nlast";
        let mut lines = Vec::new();
        while let Some(line) = read_line(&mut input).expect("reads") {
            lines.push(line);
        }
        assert_eq!(lines, ["uci", "isready", "\u{fffd}go", "last"]);
    }
}
