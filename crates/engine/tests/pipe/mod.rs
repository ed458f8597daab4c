//! Talking to a running `kogge` through its stdin and stdout, as a GUI does: send a command,
//! wait (with a timeout) for the line that answers it.

// Each test binary compiles this module and uses a subset of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Long enough for any answer on a loaded two-core CI machine; the tests that measure latency
/// use their own, shorter limits.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    /// Starts `kogge` with `args` (none: the protocol is chosen by the first command).
    pub fn start(args: &[&str]) -> Engine {
        Engine::start_with_env(args, &[])
    }

    /// The same, with environment variables set for it (kernel knobs, say).
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kogge"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the kogge binary starts");
        let stdout = child.stdout.take().expect("a stdout pipe");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{command}").expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
        self.transcript.push(format!("> {command}"));
    }

    /// Closes the engine's input: the end of the session.
    pub fn close_input(&mut self) {
        self.stdin = None;
        self.transcript.push("> (end of input)".to_string());
    }

    /// The next line, or `None` after `timeout` (or when the engine closed its output).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns them all, that one last. Panics with the
    /// transcript if none comes within `timeout`.
    pub fn read_until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => panic!(
                    "no {what} within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(&format!("line starting {prefix:?}"), PATIENCE, |l| {
            l.starts_with(prefix)
        })
    }

    /// Reads lines until `line` itself.
    pub fn expect_line(&mut self, line: &str) -> Vec<String> {
        self.read_until(&format!("line {line:?}"), PATIENCE, |l| l == line)
    }

    /// Lines that arrive within `wait`, without expecting any.
    pub fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Waits for the process to end; panics after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited on") {
                return status;
            }
            if Instant::now() >= deadline {
                panic!(
                    "kogge still running after {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A test that failed half-way must not leave a searching engine behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The start position after these UCI moves.
pub fn after(moves: &[&str]) -> kogge_chess::Board {
    let mut board = kogge_chess::Board::startpos();
    for text in moves {
        let mv = board.parse_uci(text).expect("a legal move");
        board.play(mv);
    }
    board
}

/// A seeded generator for the random-input tests (a 64-bit LCG, the same stream on every run
/// and machine: a failure names its seed and repeats).
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Seeded {
        Seeded(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    /// A number in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }

    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// `text` with up to `most` characters replaced by ones of `pool`.
    pub fn garble(&mut self, text: &str, most: usize, pool: &str) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let pool: Vec<char> = pool.chars().collect();
        for _ in 0..self.below(most + 1) {
            let at = self.below(chars.len());
            chars[at] = pool[self.below(pool.len())];
        }
        chars.into_iter().collect()
    }
}
