//! `Output`: the one writer the protocol front ends print through. The protocol thread answers
//! commands while a search thread prints its `info` lines and its best move, so every line (or
//! block of lines, for `d` and `eval`) is written whole under one lock and flushed at once: a GUI
//! reading the pipe never sees two lines spliced together or a line held back in a buffer.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Standard output, the protocol's channel to the GUI.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Arc::new(Mutex::new(writer)),
        }
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn line(&self, text: impl AsRef<str>) {
        self.write_whole(text.as_ref(), true);
    }

    /// Writes several lines at once, so that no other line lands in between; `text` ends with a
    /// newline or gets one.
    pub fn block(&self, text: &str) {
        self.write_whole(text, !text.ends_with('\n'));
    }

    fn write_whole(&self, text: &str, add_newline: bool) {
        // A poisoned lock only means another thread panicked mid-write; the writer itself is
        // still usable, and losing the protocol's output would be worse.
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        // Write errors are dropped on purpose: they mean the GUI closed the pipe, and the end of
        // standard input that follows ends the session cleanly.
        let _ = writer.write_all(text.as_bytes());
        if add_newline {
            let _ = writer.write_all(b"\n");
        }
        let _ = writer.flush();
    }
}

/// A `Write` that collects everything in memory, for unit tests of the front ends.
#[cfg(test)]
#[derive(Clone, Default)]
pub struct Captured(pub Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_blocks_end_in_newlines() {
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        out.line("readyok");
        out.block("a\nb\n");
        out.block("c");
        assert_eq!(captured.text(), "readyok\na\nb\nc\n");
    }

    #[test]
    fn lines_from_threads_never_interleave() {
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        std::thread::scope(|s| {
            for t in 0..4 {
                let out = out.clone();
                s.spawn(move || {
                    for _ in 0..200 {
                        out.line(format!("thread {t} says a fairly long line of text"));
                    }
                });
            }
        });
        let text = captured.text();
        assert_eq!(text.lines().count(), 800);
        assert!(
            text.lines()
                .all(|l| l.starts_with("thread ") && l.ends_with("line of text"))
        );
    }
}
