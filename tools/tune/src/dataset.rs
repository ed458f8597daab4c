//! The training positions: parsed from `FEN [result]` lines and traced once into a compact
//! sparse form, since the coefficients do not change while the weights do.

use anyhow::{Context, bail};
use kogge_chess::Board;
use kogge_eval::{MAX_PHASE, param, trace};
use rayon::prelude::*;

/// Parses one data line: a FEN (four to six fields) and a result from white's point of view,
/// written `[1.0]`/`[0.5]`/`[0.0]` (our format; any number from 0 to 1 in brackets) or
/// `1-0`/`1/2-1/2`/`0-1`, with or without quotes. A bare number is refused: it would be
/// indistinguishable from the FEN's move number.
pub fn parse_line(line: &str) -> anyhow::Result<(Board, f32)> {
    let line = line.trim();
    let (fen, result) = line
        .rsplit_once(char::is_whitespace)
        .with_context(|| format!("no result in {line:?}"))?;
    let unquoted = result.trim_end_matches(';').trim_matches('"');
    let result = match unquoted {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => other
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.parse::<f32>().ok())
            .with_context(|| format!("bad result {result:?} in {line:?}"))?,
    };
    if !(0.0..=1.0).contains(&result) {
        bail!("result {result} out of range in {line:?}");
    }
    let board = Board::from_fen(fen.trim()).with_context(|| format!("bad FEN in {line:?}"))?;
    Ok((board, result))
}

/// Traced positions, structure of arrays. Position `i`'s nonzero coefficients are
/// `params[offsets[i]..offsets[i + 1]]` with counts `counts[..]` (white's minus black's).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub offsets: Vec<u32>,
    pub params: Vec<u16>,
    pub counts: Vec<i16>,
    /// The midgame share of the blend, `phase / 24`.
    pub mg_share: Vec<f32>,
    /// The game result, white's point of view: 1, 0.5 or 0.
    pub result: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Traces `positions` (in parallel).
    pub fn from_positions(positions: &[(Board, f32)]) -> Dataset {
        /// One position: nonzero `(param, count)`, midgame share, result.
        type Traced = (Vec<(u16, i16)>, f32, f32);
        let traced: Vec<Traced> = positions
            .par_iter()
            .map(|(board, result)| {
                let c = trace(board);
                let sparse = c
                    .nonzero()
                    .map(|(p, n)| (p as u16, n.clamp(-i16::MAX as i32, i16::MAX as i32) as i16))
                    .collect();
                (sparse, c.phase as f32 / MAX_PHASE as f32, *result)
            })
            .collect();
        let mut d = Dataset {
            offsets: vec![0],
            ..Dataset::default()
        };
        for (sparse, mg_share, result) in traced {
            for (p, n) in sparse {
                d.params.push(p);
                d.counts.push(n);
            }
            d.offsets.push(d.params.len() as u32);
            d.mg_share.push(mg_share);
            d.result.push(result);
        }
        d
    }

    /// Reads and traces a data file; returns the data set and the number of lines skipped as
    /// unreadable (reported, not fatal: one bad line should not waste a long datagen run).
    pub fn load(path: &std::path::Path) -> anyhow::Result<(Dataset, usize)> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let parsed: Vec<Option<(Board, f32)>> =
            lines.par_iter().map(|l| parse_line(l).ok()).collect();
        let skipped = parsed.iter().filter(|p| p.is_none()).count();
        let positions: Vec<(Board, f32)> = parsed.into_iter().flatten().collect();
        if positions.is_empty() {
            bail!("{}: no positions", path.display());
        }
        Ok((Dataset::from_positions(&positions), skipped))
    }

    /// Splits off the last `fraction` of the positions as a held-out set. Datagen writes games
    /// whole and in order, so the tail holds whole games (but one) the head never saw.
    pub fn split_tail(&self, fraction: f64) -> (Dataset, Dataset) {
        let n = self.len();
        let held = ((n as f64 * fraction).round() as usize).min(n);
        (self.slice(0..n - held), self.slice(n - held..n))
    }

    fn slice(&self, range: std::ops::Range<usize>) -> Dataset {
        let (a, b) = (
            self.offsets[range.start] as usize,
            self.offsets[range.end] as usize,
        );
        Dataset {
            offsets: self.offsets[range.start..=range.end]
                .iter()
                .map(|o| o - a as u32)
                .collect(),
            params: self.params[a..b].to_vec(),
            counts: self.counts[a..b].to_vec(),
            mg_share: self.mg_share[range.clone()].to_vec(),
            result: self.result[range].to_vec(),
        }
    }

    /// Position `i`'s nonzero coefficients.
    #[inline]
    pub fn entries(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        self.params[a..b]
            .iter()
            .zip(&self.counts[a..b])
            .map(|(p, n)| (*p as usize, f64::from(*n)))
    }

    /// How many positions use each weight at all: weights no position touches cannot be tuned.
    pub fn usage(&self) -> Vec<u64> {
        let mut used = vec![0; param::COUNT];
        for p in &self.params {
            used[*p as usize] += 1;
        }
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_formats() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (label, expected) in [
            ("[1.0]", 1.0),
            ("[0.5]", 0.5),
            ("[0.0]", 0.0),
            ("\"1-0\";", 1.0),
            ("1/2-1/2", 0.5),
            ("0-1", 0.0),
            ("[0.25]", 0.25),
        ] {
            let (board, result) = parse_line(&format!("{start} {label}")).expect(label);
            assert_eq!(board, Board::startpos());
            assert_eq!(result, expected, "{label}");
        }
        assert!(parse_line(&format!("{start} [2.0]")).is_err());
        assert!(parse_line(start).is_err());
        assert!(parse_line(&format!("{start} 0.5")).is_err());
        assert!(parse_line("not a fen [1.0]").is_err());
    }

    #[test]
    fn split_keeps_positions_whole() {
        let boards: Vec<(Board, f32)> = (0..10)
            .map(|i| (Board::startpos(), i as f32 / 10.0))
            .collect();
        let d = Dataset::from_positions(&boards);
        let (train, held) = d.split_tail(0.2);
        assert_eq!((train.len(), held.len()), (8, 2));
        assert_eq!(held.result, vec![0.8, 0.9]);
        assert_eq!(
            held.entries(1).collect::<Vec<_>>(),
            d.entries(9).collect::<Vec<_>>()
        );
    }
}
