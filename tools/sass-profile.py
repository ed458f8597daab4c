#!/usr/bin/env python3
"""Adds Nsight Compute's per-SASS-instruction counts up by kernel source line and function;
without a profile, the kernel's code size the same way.

Inputs: the SASS page of an ncu report (`ncu -i R --page source --csv --print-source sass`,
as bench/gpu-perft-profile.sh writes it), the cubin and source NVRTC built (KOGGE_CUDA_DUMP),
and nvdisasm (CUDA's disassembler: on the device, or the `nvidia-cuda-nvdisasm` wheel). The
cubin must be the one that ran: the same source, defines and NVRTC version.

Usage: tools/sass-profile.py --csv pos3-sass.csv --cubin kernel-0.cubin --source kernel-0.cu
       [--kernel NAME] [--nvdisasm PATH] [--top 40]
Prints how much distinct code the executions were spread over (the fewest instructions and
128-byte lines making up 50%, 90% and 99% of them: what the instruction caches must hold), the
functions that 90% was written in (with their instructions and those that ran), then the
functions and the source lines with the most warp instructions executed, with the thread
instructions (lanes doing work), the stall samples and the main stall reasons.

Without --csv (--kernel then required) it prints the static size instead: instructions by the
function and line they were compiled from (inlined code counts where it was written), and by
kind of memory access; no GPU is needed (bench/gpu-kernel-size.sh).
"""

import argparse
import csv
import re
import subprocess
from collections import defaultdict

LINE_RE = re.compile(r'//## File "([^"]*)", line (\d+)')
INSN_RE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNC_RE = re.compile(r"^(?:KERNEL|DEVICE_FN|HEAVY_FN|NOINLINE_FN|SLIDER_FN|__device__)\s.*?\b(\w+)\s*\(")


def disassemble(nvdisasm, cubin, kernel):
    """(offset, source line, text) for every instruction of `kernel`."""
    out = subprocess.run([nvdisasm, "-g", "-c", cubin], check=True, capture_output=True, text=True).stdout
    rows, inside, line = [], False, 0
    for text in out.splitlines():
        if text.startswith(".text."):
            inside = text == f".text.{kernel}:"
            continue
        if not inside:
            continue
        m = LINE_RE.search(text)
        if m:
            # Lines of the prelude (before the `#line 1 "kernel"` directive: the file NVRTC was
            # given, `kernel.cu`) count as negative, so that they stay apart from the source's.
            line = int(m.group(2)) * (-1 if m.group(1).endswith(".cu") else 1)
            continue
        m = INSN_RE.search(text)
        if m:
            rows.append((int(m.group(1), 16), line, m.group(2)))
    return rows


def read_csv(path):
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    header_at = next(i for i, r in enumerate(lines) if r and r[0] == "Address")
    header = lines[header_at]
    return [dict(zip(header, r)) for r in lines[header_at + 1:] if r and r[0].startswith("0x")]


def kernel_of_csv(path):
    """The kernel an ncu SASS page is of: its first line reads "Kernel Name","NAME"."""
    with open(path, newline="") as f:
        first = next(csv.reader(f), [])
    if len(first) < 2 or first[0] != "Kernel Name":
        raise SystemExit(f"{path} names no kernel: pass --kernel")
    return first[1]


def functions_by_line(source_path):
    """Source lines and their enclosing function names, for the lines after the `#line 1`
    directive (index line - 1) and for the prelude (index -line - 1, in `prelude`)."""
    with open(source_path) as f:
        text = f.read().splitlines()
    start = next(i for i, t in enumerate(text) if t.startswith("#line 1 "))

    def names_of(lines):
        names, current = [], "(top)"
        for i, t in enumerate(lines):
            m = FUNC_RE.match(t)
            if m:
                current = m.group(1)
                # `KERNEL void LAUNCH_BOUNDS(...)`: the kernel's name opens the next line.
                if current == "LAUNCH_BOUNDS" and i + 1 < len(lines):
                    n = re.match(r"\s*(\w+)\s*\(", lines[i + 1])
                    current = n.group(1) if n else current
            names.append(current)
        return names

    body, prelude = text[start + 1:], text[:start]
    return body, names_of(body), prelude, ["prelude:" + n for n in names_of(prelude)]


def describe(line, body, names, prelude, prelude_names):
    """(function, source text) of a line number as disassemble() gives it."""
    if 0 < line <= len(body):
        return names[line - 1], body[line - 1].strip()
    if 0 < -line <= len(prelude):
        return prelude_names[-line - 1], "prelude: " + prelude[-line - 1].strip()
    return "(none)", ""


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


# Kinds of SASS instruction worth counting apart in a kernel's size: memory by address space
# (local memory is the stack of non-inlined calls and spills), calls and branches.
KINDS = (("local", re.compile(r"^(?:@!?U?P\w+\s+)?(?:LDL|STL)\b")),
         ("shared", re.compile(r"^(?:@!?U?P\w+\s+)?(?:LDS|STS|ATOMS)\b")),
         ("global", re.compile(r"^(?:@!?U?P\w+\s+)?(?:LDG|STG|ATOMG|RED|LD|ST)\b")),
         ("call", re.compile(r"^(?:@!?U?P\w+\s+)?CALL\b")),
         ("branch", re.compile(r"^(?:@!?U?P\w+\s+)?(?:BRA|BRX|JMP|JMX)\b")))


def static_size(sass, lines, args):
    """Prints the kernel's instructions by source function and line, and by kind."""
    by_func, by_line, kinds = defaultdict(int), defaultdict(int), defaultdict(int)
    for _, line, text in sass:
        by_func[describe(line, *lines)[0]] += 1
        by_line[line] += 1
        for kind, pattern in KINDS:
            if pattern.match(text):
                kinds[kind] += 1
    total = len(sass)
    print(f"{args.kernel}: {total} instructions ({16 * total / 1024:.1f} KiB), "
          + ", ".join(f"{kinds[k]} {k}" for k, _ in KINDS))
    print(f"\n{'function':32} {'instr':>6} {'%':>6}")
    for func, n in sorted(by_func.items(), key=lambda kv: -kv[1]):
        if n / total >= 0.002:
            print(f"{func:32} {n:6} {100 * n / total:6.1f}")
    print(f"\n{'line':>5} {'instr':>6}  source")
    for line, n in sorted(by_line.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{line:5} {n:6}  {describe(line, *lines)[1][:90]}")


def hottest(counts, share):
    """The indices of the fewest `counts` (executions) whose sum makes up `share` of all, most
    executed first; never one that did not run."""
    need, got, chosen = share * sum(counts), 0.0, []
    for i in sorted(range(len(counts)), key=lambda i: -counts[i]):
        if got >= need or counts[i] <= 0:
            break
        chosen.append(i)
        got += counts[i]
    return chosen


def hot_footprint(executed, shares=(0.5, 0.9, 0.99), line_bytes=128):
    """How much distinct code the executions were spread over: for each share, the fewest
    instructions and the fewest `line_bytes` cache lines whose executions make up that share of
    all executed. `executed` holds (byte offset, executions) per instruction. Returns
    (share, instructions, lines) for each share, then (1.0, instructions, lines) of all the code
    that ran at all. With several workers an SM, each running its own part of the kernel, the
    instruction caches (about 32 KB at full speed, PERFORMANCE.md) hold the hot code only if it
    is small, so this says how far a hot path is from fitting."""
    by_line = defaultdict(float)
    for off, n in executed:
        by_line[off // line_bytes] += n
    insns, lines = [n for _, n in executed], list(by_line.values())
    rows = [(share, len(hottest(insns, share)), len(hottest(lines, share))) for share in shares]
    rows.append((1.0, sum(1 for n in insns if n > 0), sum(1 for n in lines if n > 0)))
    return rows


def hot_by_function(executed, funcs, share=0.9):
    """Where the hot code is: for each function (`funcs[i]` names the function instruction i was
    compiled from, inlined code counting where it was written; `executed[i]` its executions),
    its instructions, those that ran, and those among the fewest instructions whose executions
    make up `share` of all (`hottest`, the set hot_footprint counts). Returns {function:
    (instructions, ran, hot)}. A function's hot count, not its share of the executions, is what it takes of the instruction
    caches: code that runs once a node costs as much room as a loop's body."""
    hot = set(hottest(executed, share))
    out = defaultdict(lambda: [0, 0, 0])
    for i, (n, func) in enumerate(zip(executed, funcs)):
        row = out[func]
        row[0] += 1
        row[1] += n > 0
        row[2] += i in hot
    return {f: tuple(r) for f, r in out.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", help="ncu's SASS page; without it, the static size")
    ap.add_argument("--cubin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--kernel", help="the kernel profiled (default: the one the CSV names)")
    ap.add_argument("--nvdisasm", default="nvdisasm")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()

    if args.csv is None:
        if args.kernel is None:
            raise SystemExit("--kernel is required without --csv")
        static_size(disassemble(args.nvdisasm, args.cubin, args.kernel), functions_by_line(args.source), args)
        return
    if args.kernel is None:
        args.kernel = kernel_of_csv(args.csv)
    sass = disassemble(args.nvdisasm, args.cubin, args.kernel)
    rows = read_csv(args.csv)
    if len(sass) != len(rows):
        raise SystemExit(f"{len(sass)} instructions disassembled but {len(rows)} profiled: not the same cubin")
    lines = functions_by_line(args.source)
    stall_cols = [c for c in rows[0] if c.startswith("stall_") and "Not Issued" not in c]

    by_line = defaultdict(lambda: defaultdict(float))
    by_func = defaultdict(lambda: defaultdict(float))
    total = defaultdict(float)
    for (off, line, text), r in zip(sass, rows):
        func = describe(line, *lines)[0]
        for key, col in (("warp", "Instructions Executed"), ("thread", "Thread Instructions Executed"),
                         ("samples", "Warp Stall Sampling (All Samples)")):
            v = num(r.get(col, "0"))
            by_line[line][key] += v
            by_func[func][key] += v
            total[key] += v
        for c in stall_cols:
            v = num(r[c])
            by_line[line][c] += v
            by_func[func][c] += v
            total[c] += v

    print(f"{args.kernel}: hot code, executions covered by the fewest instructions and 128-byte lines:")
    for share, insns, lines_hot in hot_footprint([(off, num(r.get("Instructions Executed", "0")))
                                                   for (off, _, _), r in zip(sass, rows)]):
        what = "all that ran" if share == 1.0 else f"{share:.0%} of executions"
        print(f"  {what:>18}: {insns} instructions ({16 * insns / 1024:.1f} KiB), "
              f"{lines_hot} lines ({128 * lines_hot / 1024:.1f} KiB)")

    executions = [num(r.get("Instructions Executed", "0")) for r in rows]
    hot = hot_by_function(executions, [describe(line, *lines)[0] for _, line, _ in sass])
    hot_total = sum(h for _, _, h in hot.values())
    print(f"\nthe {hot_total} instructions making up 90% of the executions, by function "
          "(instructions / ran / hot):")
    listed = sorted(hot.items(), key=lambda kv: -kv[1][2])[: args.top]
    for k in range(0, len(listed), 3):
        print("  " + "".join(f"{f[:26]:26} {n:5} {r:5} {h:5}    " for f, (n, r, h) in listed[k:k + 3]).rstrip())

    def reasons(d):
        top = sorted(((d[c], c[6:]) for c in stall_cols), reverse=True)[:3]
        return ", ".join(f"{name} {v / max(d['samples'], 1):.0%}" for v, name in top if v)

    print(f"{args.kernel}: {total['warp']:.4g} warp instructions, {total['thread']:.4g} thread "
          f"instructions ({total['thread'] / max(total['warp'], 1):.1f} lanes each), "
          f"{total['samples']:.0f} stall samples ({reasons(total)})")
    print(f"\n{'function':32} {'warp %':>7} {'lanes':>6} {'stall %':>8}  main stalls")
    for func, d in sorted(by_func.items(), key=lambda kv: -kv[1]["warp"]):
        if d["warp"] / total["warp"] < 0.002:
            continue
        print(f"{func:32} {100 * d['warp'] / total['warp']:7.1f} {d['thread'] / max(d['warp'], 1):6.1f} "
              f"{100 * d['samples'] / max(total['samples'], 1):8.1f}  {reasons(d)}")
    print(f"\n{'line':>5} {'warp %':>7} {'lanes':>6} {'stall %':>8}  source")
    for line, d in sorted(by_line.items(), key=lambda kv: -kv[1]["warp"])[: args.top]:
        src = describe(line, *lines)[1][:90]
        print(f"{line:5} {100 * d['warp'] / total['warp']:7.1f} {d['thread'] / max(d['warp'], 1):6.1f} "
              f"{100 * d['samples'] / max(total['samples'], 1):8.1f}  {src}")


if __name__ == "__main__":
    main()
