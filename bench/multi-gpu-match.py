"""One GPU match played on every GPU of a machine at once: the openings split into one slice a
GPU, the match script run once a slice with that GPU alone visible (CUDA_VISIBLE_DEVICES) and an
equal share of the cores (its affinity), then the slices' results pooled.

A GPU match plays one game at a time on its GPU (a game on a clock needs the GPU, and the CPU
engine its cores, to itself: bench/gpu-vs-cpu.sh). A machine with four GPUs and four times the
cores of one plays four such games side by side, each with what the one-GPU machine gives it
(sixteen cores and one GPU there, since the engines do not ponder: one engine thinks at a time),
so the games of a device call count four times over.

    python3 bench/multi-gpu-match.py [--gpus N] [--first A] --last B [--results DIR] \\
        -- bash bench/gpu-ab-match.sh

The script after `--` reads FIRST, LAST, GAMES and RESULTS from the environment, as
bench/gpu-ab-match.sh and bench/gpu-vs-cpu.sh do; everything else (KOGGE, TC, UCI_A, OPENINGS,
...) it reads from this one's environment, passed on. Slice i gets GPU i, cores i*C to
i*C+C-1 (C the cores over the GPUs), openings A + i*K to A + i*K + K - 1 (K the openings over
the GPUs, the first slices one more where they do not divide), two games an opening (colours
swapped) and RESULTS=DIR/gpuI. B past the openings file's last line is cut to it (a slice
without openings would play none, one with too few repeats them). SIGINT (`timeout -s INT`)
stops every slice as it stops one match: each writes the games it finished, and the pooled
result follows.

Prints each slice's own output with its GPU in front, then tools/match/combine.py's pooled line
over the slices' result.json and tools/match/depths.py over their games together
(DIR/games.pgn).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
MATCH_TOOLS = REPOSITORY / "tools" / "match"
# The match scripts' openings where OPENINGS is not set (bench/match-common.sh).
DEFAULT_OPENINGS = REPOSITORY.parent / "shared" / "data" / "openings-8ply.epd"


def gpu_count() -> int:
    """The GPUs nvidia-smi lists, or 1 where it is missing or lists none."""
    if shutil.which("nvidia-smi") is None:
        return 1
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
    return max(1, sum(line.startswith("GPU ") for line in listed.stdout.splitlines()))


def slices(first: int, last: int, parts: int) -> list[tuple[int, int]]:
    """Openings first..last (inclusive) in `parts` contiguous slices, the first ones one longer
    where they do not divide; no empty slice (fewer parts where there are fewer openings)."""
    count = last - first + 1
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    out, start = [], first
    for i in range(parts):
        end = start + size + (1 if i < extra else 0) - 1
        out.append((start, end))
        start = end + 1
    return out


def core_slices(cores: list[int], parts: int) -> list[list[int]]:
    """The cores in `parts` equal contiguous shares (what does not divide is left out)."""
    share = max(1, len(cores) // parts)
    return [cores[i * share : (i + 1) * share] or cores for i in range(parts)]


def relay(prefix: str, stream, sink) -> None:
    """Copies a slice's output line by line with its GPU in front."""
    for line in iter(stream.readline, ""):
        sink.write(f"{prefix}{line}")
        sink.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpus", type=int, default=0, help="slices, one a GPU (default: the GPUs nvidia-smi lists)")
    parser.add_argument("--first", type=int, default=1, help="the first opening's line (1-based; default 1)")
    parser.add_argument("--last", type=int, required=True, help="the last opening's line (inclusive)")
    parser.add_argument("--results", type=Path, default=Path("multi-gpu-results"), help="folder for the slices' results")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the match script's command line")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no match command after --")
    if args.last < args.first:
        parser.error("--last is before --first")

    # The match scripts take their openings from OPENINGS (or the harness's default file): lines
    # past its end would give a slice no openings, or too few (the harness then repeats them).
    book = Path(os.environ.get("OPENINGS", DEFAULT_OPENINGS))
    if book.is_file():
        # By line number, as bench/match-common.sh cuts FIRST to LAST out of it with sed.
        lines = len(book.read_text().splitlines())
        if args.first > lines:
            parser.error(f"--first {args.first} is past the last of {book}'s {lines} openings")
        if args.last > lines:
            print(f"--last {args.last} is past {book}'s {lines} openings: up to {lines}", file=sys.stderr)
            args.last = lines

    gpus = args.gpus or gpu_count()
    openings = slices(args.first, args.last, gpus)
    cores = core_slices(sorted(os.sched_getaffinity(0)), len(openings))
    args.results.mkdir(parents=True, exist_ok=True)

    children, relays = [], []
    for i, ((a, b), share) in enumerate(zip(openings, cores)):
        env = dict(os.environ)
        env.update(
            CUDA_VISIBLE_DEVICES=str(i),
            FIRST=str(a),
            LAST=str(b),
            GAMES=str(2 * (b - a + 1)),
            RESULTS=str(args.results / f"gpu{i}"),
        )
        print(f"gpu{i}: openings {a}-{b}, cores {share[0]}-{share[-1]}", flush=True)
        # The affinity is set in the child before it runs the script (preexec_fn), so every
        # process the match starts inherits it; all children are started before any relay
        # thread, since preexec_fn is not safe in a process that runs threads.
        child = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=lambda share=share: os.sched_setaffinity(0, share),
        )
        children.append(child)
    for i, child in enumerate(children):
        thread = threading.Thread(target=relay, args=(f"gpu{i}: ", child.stdout, sys.stdout), daemon=True)
        thread.start()
        relays.append(thread)

    # SIGINT reaches the children as well (the same process group): wait for them to finish
    # their games' records, however often it comes.
    while any(child.poll() is None for child in children):
        try:
            for child in children:
                child.wait()
        except KeyboardInterrupt:
            continue
    for thread in relays:
        thread.join(timeout=5)

    results = [args.results / f"gpu{i}" / "result.json" for i in range(len(children))]
    found = [r for r in results if r.is_file()]
    pgns = [r.parent / "games.pgn" for r in results if (r.parent / "games.pgn").is_file()]
    pooled = args.results / "games.pgn"
    pooled.write_text("".join(p.read_text() for p in pgns))
    print(f"pooled: {len(found)} of {len(results)} slices' results, games in {pooled}", flush=True)
    if found:
        subprocess.run([sys.executable, str(MATCH_TOOLS / "combine.py"), *map(str, found)], check=False)
    if pooled.stat().st_size > 0:
        subprocess.run([sys.executable, str(MATCH_TOOLS / "depths.py"), str(pooled)], check=False)
    failed = [i for i, child in enumerate(children) if child.returncode not in (0, -2, 130)]
    if failed:
        print(f"slices that failed: {', '.join(f'gpu{i}' for i in failed)}", file=sys.stderr)
    return 1 if failed or not found else 0


if __name__ == "__main__":
    sys.exit(main())
