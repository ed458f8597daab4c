//! Rules of the kernel source that no compiler enforces, checked on the text of `kernels/`.
//!
//! Out-of-line functions (`NOINLINE_FN`, and `HEAVY_FN` and `SLIDER_FN`, which the search builds
//! out of line) must not take a pointer to local (shared) memory: PoCL 3.1 compiles such a
//! function so that it does not read what the work-group wrote there. `bench/pocl-local-noinline.sh`
//! shows it (the fifty-first session, docs/PERFORMANCE.md): a repetition test reading `__local`
//! keys through its pointer argument found all 192 repetitions inline and none out of line; the
//! search with its `is_repetition` out of line searched another tree on PoCL (903,337 nodes
//! against CUDA's and the inline build's 1,073,786 for `kogge bench`'s eight positions at depth
//! 12). Whether CUDA has the fault was not tried; the kernels are one source for both.

use std::fs;
use std::path::{Path, PathBuf};

/// The markers of functions that are, or may be built, out of line.
const OUT_OF_LINE: [&str; 3] = ["NOINLINE_FN", "HEAVY_FN", "SLIDER_FN"];

fn kernel_sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("crates/gpu/kernels")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "h" || e == "cl"))
        .collect();
    files.sort();
    files
}

/// The signatures (marker to the opening brace or semicolon) of the out-of-line functions in
/// `text`, each with its line number.
fn out_of_line_signatures(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(marker) = OUT_OF_LINE
            .iter()
            .find(|m| line.starts_with(&format!("{m} ")))
        else {
            continue;
        };
        // The whole signature: parameters may run over several lines.
        let start = text.lines().take(index).map(|l| l.len() + 1).sum::<usize>();
        let rest = &text[start + marker.len()..];
        let end = rest.find(['{', ';']).unwrap_or(rest.len());
        found.push((index + 1, rest[..end].to_string()));
    }
    found
}

fn takes_local_pointer(signature: &str) -> bool {
    let params = signature.split_once('(').map_or("", |(_, p)| p);
    params.contains("LOCAL")
}

#[test]
fn out_of_line_functions_take_no_local_pointer() {
    let mut offenders = Vec::new();
    let mut seen = 0;
    for file in kernel_sources() {
        let text = fs::read_to_string(&file).expect("a kernel source");
        for (line, signature) in out_of_line_signatures(&text) {
            seen += 1;
            if takes_local_pointer(&signature) {
                offenders.push(format!("{}:{line}: {}", file.display(), signature.trim()));
            }
        }
    }
    // The scan must see the functions it guards (tt_store, see_ge, make_move_of, ...).
    assert!(
        seen >= 15,
        "only {seen} out-of-line functions found: is the scan broken?"
    );
    assert!(
        offenders.is_empty(),
        "out-of-line functions taking local memory (PoCL reads it wrong):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_rule_sees_a_local_pointer_across_lines() {
    let text = "DEVICE_FN int inline_ok(LOCAL_PTR u64 *k) { return 0; }\n\
                NOINLINE_FN int is_repetition(LOCAL_PTR WorkerStack *s, u32 ply,\n    u64 key) {\n\
                NOINLINE_FN void tt_store(GLOBAL TTEntry *tt,\n    u32 log2) {\n";
    let signatures = out_of_line_signatures(text);
    assert_eq!(signatures.len(), 2, "{signatures:?}");
    assert_eq!(signatures[0].0, 2);
    assert!(takes_local_pointer(&signatures[0].1));
    assert!(!takes_local_pointer(&signatures[1].1));
}
