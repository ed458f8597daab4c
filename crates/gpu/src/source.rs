//! Assembles what the compilers see: the backend's prelude, the caller's `#define`s, a `#line`
//! directive, the caller's source.

use crate::{BackendKind, GpuError, PRELUDE_CUDA, PRELUDE_OPENCL};
use std::fmt::Write;

/// The file name compiler messages give the caller's source.
pub(crate) const SOURCE_NAME: &str = "kernel";

pub(crate) fn assemble(
    backend: BackendKind,
    source: &str,
    defines: &[(&str, String)],
) -> Result<String, GpuError> {
    if source.contains('\0') {
        return Err(GpuError::BadArgument(
            "kernel source contains a NUL byte".into(),
        ));
    }
    let prelude = match backend {
        BackendKind::Cuda => PRELUDE_CUDA,
        BackendKind::OpenCl => PRELUDE_OPENCL,
    };
    let mut full = String::with_capacity(prelude.len() + source.len() + 64 * defines.len() + 64);
    full.push_str(prelude);
    full.push('\n');
    for (name, value) in defines {
        check_define(name, value)?;
        // Writing to a String cannot fail.
        let _ = writeln!(full, "#define {name} {value}");
    }
    let _ = writeln!(full, "#line 1 \"{SOURCE_NAME}\"");
    full.push_str(source);
    full.push('\n');
    Ok(full)
}

/// Physical lines before the caller's source in an assembled text: the prelude, the defines and
/// the `#line` directive.
fn header_lines(full: &str) -> usize {
    let marker = format!("\n#line 1 \"{SOURCE_NAME}\"\n");
    match full.rfind(&marker) {
        Some(at) => full[..at + marker.len()].matches('\n').count(),
        None => 0,
    }
}

/// Rewrites `<kernel>:LINE:` locations, as NVIDIA's OpenCL compiler writes them (it ignores
/// `#line`), into lines of the caller's source: `kernel:LINE:` (or `prelude:LINE:` for the
/// prelude and the defines). Logs that honoured `#line` (PoCL) pass unchanged.
pub(crate) fn fix_opencl_log(log: &str, full: &str) -> String {
    const TAG: &str = "<kernel>:";
    let header = header_lines(full);
    let mut fixed = String::with_capacity(log.len());
    let mut rest = log;
    while let Some(at) = rest.find(TAG) {
        fixed.push_str(&rest[..at]);
        let after = &rest[at + TAG.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match after[..digits].parse::<usize>() {
            Ok(line) if after[digits..].starts_with(':') => {
                if line > header {
                    fixed.push_str(&format!("{SOURCE_NAME}:{}", line - header));
                } else {
                    fixed.push_str(&format!("prelude:{line}"));
                }
            }
            _ => fixed.push_str(&format!("{TAG}{}", &after[..digits])),
        }
        rest = &after[digits..];
    }
    fixed.push_str(rest);
    fixed
}

/// A macro name is a C identifier; a value is one line (no NUL, no line break).
fn check_define(name: &str, value: &str) -> Result<(), GpuError> {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !identifier {
        return Err(GpuError::BadArgument(format!(
            "#define name '{name}' is not a C identifier"
        )));
    }
    if value.contains(['\n', '\r', '\0']) {
        return Err(GpuError::BadArgument(format!(
            "#define {name}: the value must be one line"
        )));
    }
    Ok(())
}

/// With the environment variable `var` naming a folder, writes `files` (extension, contents) there
/// as `STEM-N.EXT`, N the next value of `counter` (programs this process built), for reading
/// what a backend compiled (`KOGGE_CUDA_DUMP`, `KOGGE_OPENCL_DUMP`). A failed write is reported
/// on stderr and changes nothing else.
pub(crate) fn dump_files(
    var: &str,
    counter: &std::sync::atomic::AtomicUsize,
    stem: &str,
    files: &[(&str, &[u8])],
) {
    let Some(dir) = std::env::var_os(var) else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    for (ext, bytes) in files {
        let path = dir.join(format!("{stem}-{n}.{ext}"));
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, bytes)) {
            eprintln!("{var}: cannot write {}: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_follow_the_prelude_and_the_source_starts_at_line_one() {
        let full = assemble(
            BackendKind::OpenCl,
            "KERNEL void k() {}",
            &[("DEPTH", "3".into()), ("_X1", String::new())],
        )
        .unwrap();
        assert!(full.starts_with(PRELUDE_OPENCL));
        let tail = &full[PRELUDE_OPENCL.len()..];
        assert_eq!(
            tail,
            "\n#define DEPTH 3\n#define _X1 \n#line 1 \"kernel\"\nKERNEL void k() {}\n"
        );
    }

    #[test]
    fn nvidia_opencl_line_numbers_are_rebased() {
        let full = assemble(BackendKind::OpenCl, "a\nb\nc", &[("X", "1".into())]).unwrap();
        let header = PRELUDE_OPENCL.matches('\n').count() + 3;
        let log = format!(
            "<kernel>:{}:14: error: oops\n<kernel>:3:1: warning: prelude\n<kernel> odd",
            header + 2
        );
        assert_eq!(
            fix_opencl_log(&log, &full),
            "kernel:2:14: error: oops\nprelude:3:1: warning: prelude\n<kernel> odd"
        );
        let pocl = "kernel:2:14: error: use of undeclared identifier";
        assert_eq!(fix_opencl_log(pocl, &full), pocl);
    }

    #[test]
    fn malformed_defines_are_refused() {
        for (name, value) in [("1X", "1"), ("A-B", "1"), ("", "1"), ("OK", "1\n2")] {
            let result = assemble(BackendKind::Cuda, "", &[(name, value.to_string())]);
            assert!(
                matches!(result, Err(GpuError::BadArgument(_))),
                "{name:?} {value:?}"
            );
        }
        assert!(matches!(
            assemble(BackendKind::Cuda, "a\0b", &[]),
            Err(GpuError::BadArgument(_))
        ));
    }
}
