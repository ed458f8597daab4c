//! EPD: a position (the first four FEN fields, optionally followed by the two clock fields) and a
//! list of operations `opcode operand…;`. Understood everywhere: `bm`/`am` (SAN moves), `id`,
//! `c0`..`c9` (quoted comments), and the perft-suite counts `;D1 20 ;D2 400`.

use crate::board::Board;
use crate::fen::FenError;
use thiserror::Error;

/// One EPD operation: its opcode and its operands, quotes removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// A parsed EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    pub board: Board,
    pub operations: Vec<Operation>,
}

/// What is wrong with an EPD line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EpdError {
    #[error("the line has {0} fields; an EPD position needs 4 (board, side, castling, en passant)")]
    TooShort(usize),
    #[error("bad position: {0}")]
    Position(#[from] FenError),
    #[error("unterminated string in operation '{0}'")]
    UnterminatedString(String),
    #[error("operation '{0}' does not start with an opcode (a letter)")]
    BadOpcode(String),
    #[error("operation '{opcode}': '{operand}' is not a valid {what}")]
    BadOperand {
        opcode: String,
        operand: String,
        what: &'static str,
    },
}

impl Epd {
    /// Parses one EPD line.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let line = line.trim();
        // The four position fields are separated by whitespace; the operations start after them.
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        if fields.len() < 4 || fields.iter().any(|f| f.contains(';')) {
            return Err(EpdError::TooShort(fields.len()));
        }
        // Two numbers right after the position are the FEN clocks (perft suites keep them).
        let mut clock_rest = rest.trim_start();
        for _ in 0..2 {
            let end = clock_rest
                .find(char::is_whitespace)
                .unwrap_or(clock_rest.len());
            let token = &clock_rest[..end];
            if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            fields.push(token);
            clock_rest = clock_rest[end..].trim_start();
        }
        if fields.len() == 6 || fields.len() == 4 {
            rest = clock_rest;
        } else {
            // A lone number is not a pair of clocks: leave it to the operations parser.
            fields.truncate(4);
        }
        let board = Board::from_fen(&fields.join(" "))?;
        let operations = parse_operations(rest)?;
        let epd = Epd { board, operations };
        epd.validate()?;
        Ok(epd)
    }

    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|o| o.opcode == opcode)
    }

    /// The `id` string, if any.
    pub fn id(&self) -> Option<&str> {
        self.operation("id")
            .and_then(|o| o.operands.first())
            .map(String::as_str)
    }

    /// Perft counts from `Dn count` operations, sorted by depth.
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        let mut counts: Vec<(u32, u64)> = self
            .operations
            .iter()
            .filter_map(|o| {
                let depth = o.opcode.strip_prefix('D')?.parse().ok()?;
                let count = o.operands.first()?.parse().ok()?;
                Some((depth, count))
            })
            .collect();
        counts.sort_unstable();
        counts
    }

    /// Best moves (`bm`), as written (SAN).
    pub fn best_moves(&self) -> Vec<&str> {
        self.operand_strs("bm")
    }

    /// Moves to avoid (`am`), as written (SAN).
    pub fn avoid_moves(&self) -> Vec<&str> {
        self.operand_strs("am")
    }

    /// Comment `cN` (0 to 9).
    pub fn comment(&self, n: u8) -> Option<&str> {
        self.operation(&format!("c{n}"))
            .and_then(|o| o.operands.first())
            .map(String::as_str)
    }

    fn operand_strs(&self, opcode: &str) -> Vec<&str> {
        self.operations
            .iter()
            .filter(|o| o.opcode == opcode)
            .flat_map(|o| o.operands.iter().map(String::as_str))
            .collect()
    }

    /// Operands that must be numbers are numbers.
    fn validate(&self) -> Result<(), EpdError> {
        for op in &self.operations {
            if let Some(d) = op.opcode.strip_prefix('D')
                && !d.is_empty()
                && d.bytes().all(|b| b.is_ascii_digit())
            {
                let bad = |operand: String, what| EpdError::BadOperand {
                    opcode: op.opcode.clone(),
                    operand,
                    what,
                };
                if d.parse::<u32>().is_err() {
                    return Err(bad(d.to_string(), "depth"));
                }
                match op.operands.first() {
                    Some(n) if n.parse::<u64>().is_ok() => {}
                    other => return Err(bad(other.cloned().unwrap_or_default(), "node count")),
                }
            }
        }
        Ok(())
    }
}

/// Splits `opcode operand…;` groups, honouring double-quoted strings (which may contain ';').
fn parse_operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut operations = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let finish = |tokens: &mut Vec<String>, ops: &mut Vec<Operation>| -> Result<(), EpdError> {
        if tokens.is_empty() {
            return Ok(());
        }
        let opcode = tokens.remove(0);
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(EpdError::BadOpcode(opcode));
        }
        ops.push(Operation {
            opcode,
            operands: std::mem::take(tokens),
        });
        Ok(())
    };
    while let Some(&c) = chars.peek() {
        match c {
            ';' => {
                chars.next();
                finish(&mut tokens, &mut operations)?;
            }
            '"' => {
                chars.next();
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(ch) => s.push(ch),
                        None => {
                            let opcode = tokens.first().cloned().unwrap_or_default();
                            return Err(EpdError::UnterminatedString(opcode));
                        }
                    }
                }
                tokens.push(s);
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut s = String::new();
                while let Some(&ch) = chars.peek() {
                    if ch.is_whitespace() || ch == ';' || ch == '"' {
                        break;
                    }
                    s.push(ch);
                    chars.next();
                }
                tokens.push(s);
            }
        }
    }
    // The last operation may lack its ';'.
    finish(&mut tokens, &mut operations)?;
    Ok(operations)
}

/// Parses every line of an EPD file, skipping blank lines and `#` comments. Each entry carries
/// its 1-based line number, so that errors can say where they are.
pub fn parse_file(text: &str) -> Vec<(usize, Result<Epd, EpdError>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| (i + 1, Epd::parse(l)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_suite_line() {
        let e = Epd::parse(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902",
        )
        .unwrap();
        assert_eq!(e.perft_counts(), vec![(1, 20), (2, 400), (3, 8902)]);
        assert_eq!(e.board, Board::startpos());
    }

    #[test]
    fn test_suite_line() {
        let e = Epd::parse(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001"; c0 "a; b";"#,
        )
        .unwrap();
        assert_eq!(e.best_moves(), vec!["Qg6"]);
        assert_eq!(e.id(), Some("WAC.001"));
        assert_eq!(e.comment(0), Some("a; b"));
        assert_eq!(e.board.halfmove_clock(), 0);
        let e = Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - am Kd1 Kf1; D1 5").unwrap();
        assert_eq!(e.avoid_moves(), vec!["Kd1", "Kf1"]);
        assert_eq!(e.perft_counts(), vec![(1, 5)]);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(matches!(Epd::parse("8/8/8 w"), Err(EpdError::TooShort(2))));
        assert!(matches!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - id \"open"),
            Err(EpdError::UnterminatedString(_))
        ));
        assert!(matches!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - ;D1 x"),
            Err(EpdError::BadOperand { .. })
        ));
        assert!(matches!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - ;1 5"),
            Err(EpdError::BadOpcode(_))
        ));
        assert!(matches!(
            Epd::parse("4k3/8/8/8/8/8/8/4K4 w - - ;D1 5"),
            Err(EpdError::Position(_))
        ));
    }

    #[test]
    fn file_skips_blanks_and_comments() {
        let parsed = parse_file("# suite\n\n4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\nbad\n");
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].0, 3);
        assert!(parsed[0].1.is_ok());
        assert_eq!(parsed[1].0, 4);
        assert!(parsed[1].1.is_err());
    }
}
