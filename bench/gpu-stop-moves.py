#!/usr/bin/env python3
"""Which root move should the GPU search play when the clock stops an iteration?

When `go movetime` (or the time manager) stops an iteration, every worker holds the best root
move it has found so far in this iteration (`partial_move`: one that beat its search of the
first move), and the host plays the one with the highest value over all workers, else the last
completed iteration's move. With hundreds of noisy helpers the highest of their values may be
the luckiest rather than the best. This script measures the rule against others:

1. Runs the engine over the positions (`go movetime T` each, after `ucinewgame`) with
   `KOGGE_SEARCH_TRACE`, and reads each search's `stopped` trace line (driver.rs,
   `trace_stopped`), its `info` lines and its `bestmove`.
2. Derives each rule's move: `played` (the engine's), `completed` (the last completed depth's
   first move), `worker0` (worker 0's move so far, else `completed`), `clean` (the highest
   valued move so far among the workers whose result could end the iteration: under `GPU
   Finisher clean` worker 0 and the clean helpers; else `completed`), `vote` (the move most
   workers hold, else `completed`).
3. Where the rules disagree, asks Stockfish for each candidate's value (`go depth D searchmoves
   M`, from the side to move) and prints, for each rule, in how many positions it differs from
   `played`, how often its move is better or worse by more than a margin, and the mean value
   gained over `played` in centipawns.

Usage: bench/gpu-stop-moves.py --engine kogge --positions FILE.epd [--count N] [--movetime MS]
       [--option Name=Value ...] [--stockfish PATH --sf-depth D --sf-threads T] [--out FILE.json]
       bench/gpu-stop-moves.py --records FILE.json --stockfish PATH ...   (judge saved searches)
The judge needs python-chess (tools/match/requirements.txt); the searches need nothing.
"""

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import threading

from uci_specs import fen_of

RULES = ("played", "completed", "worker0", "clean", "vote")


class Uci:
    """An engine over UCI, its stdout and stderr read on threads of their own."""

    def __init__(self, command, env=None):
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.out = queue.Queue()
        self.err = queue.Queue()
        for stream, q in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._pump, args=(stream, q), daemon=True).start()

    @staticmethod
    def _pump(stream, q):
        for line in stream:
            q.put(line.rstrip("\n"))
        q.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=600):
        """stdout lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.out.get(timeout=timeout)
            if line is None:
                raise RuntimeError(f"engine exited while waiting for {prefix!r}")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def drain_err(self):
        lines = []
        while True:
            try:
                line = self.err.get_nowait()
            except queue.Empty:
                return lines
            if line is not None:
                lines.append(line)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


# The `clean` part came with the sixty-fourth session; records of older builds lack it.
STOPPED = re.compile(
    r"stopped depth (\d+); worker 0 (none|\S+ -?\d+); (?:clean (none|\S+ -?\d+); )?"
    r"none (\d+); partials (.*)"
)


def parse_stopped(line):
    """The trace's `stopped` line: depth, worker 0's move, the clean workers' best move (absent
    from older traces: the key is missing), and [(move, workers, max, min)]."""
    m = STOPPED.match(line)
    if not m:
        return None
    w0 = None if m[2] == "none" else m[2].split()[0]
    partials = []
    for part in m[5].split(", "):
        if part:
            mv, count, high, low = part.split()
            partials.append((mv, int(count), int(high), int(low)))
    out = {"depth": int(m[1]), "worker0": w0, "none": int(m[4]), "partials": partials}
    if m[3] is not None:
        out["clean"] = None if m[3] == "none" else m[3].split()[0]
    return out


def completed_move(info_lines, stopped_depth):
    """The first move of the last exact `info` line of a depth below the stopped one."""
    best = None
    for line in info_lines:
        if " pv " not in line or "bound" in line:
            continue
        depth = re.search(r"\bdepth (\d+)", line)
        if depth and int(depth[1]) < stopped_depth:
            best = line.split(" pv ")[1].split()[0]
    return best


def fail_high_move(info_lines, stopped_depth):
    """The move of a `lowerbound` line at the stopped depth (an aspiration fail high), if any."""
    move = None
    for line in info_lines:
        depth = re.search(r"\bdepth (\d+)", line)
        if " pv " in line and "lowerbound" in line and depth and int(depth[1]) == stopped_depth:
            move = line.split(" pv ")[1].split()[0]
    return move


def rule_moves(record):
    stopped = record["stopped"]
    completed = record["completed"] or record["played"]
    moves = {"played": record["played"], "completed": completed}
    moves["worker0"] = stopped["worker0"] or completed if stopped else completed
    # A trace of a build before the `clean` part says nothing of it: the rule is then `played`'s.
    if stopped and "clean" not in stopped:
        moves["clean"] = record["played"]
    else:
        moves["clean"] = stopped["clean"] or completed if stopped else completed
    if stopped and stopped["partials"]:
        moves["vote"] = stopped["partials"][0][0]  # sorted by workers, then value
    else:
        moves["vote"] = completed
    return moves


def run_engine(args, fens):
    env = dict(os.environ, KOGGE_SEARCH_TRACE="1")
    engine = Uci([args.engine], env=env)
    engine.send("uci")
    engine.until("uciok")
    for option in args.option:
        name, value = option.split("=", 1)
        engine.send(f"setoption name {name} value {value}")
    engine.send("isready")
    engine.until("readyok")
    engine.drain_err()
    records = []
    for i, fen in enumerate(fens):
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}")
        engine.send(f"go movetime {args.movetime}")
        out = engine.until("bestmove")
        engine.send("isready")
        engine.until("readyok")
        stopped = None
        for line in engine.drain_err():
            if line.startswith("stopped depth"):
                stopped = parse_stopped(line)
        played = out[-1].split()[1]
        info = [l for l in out if l.startswith("info")]
        depth = stopped["depth"] if stopped else 999
        records.append(
            {
                "fen": fen,
                "played": played,
                "stopped": stopped,
                "completed": completed_move(info, depth),
                "fail_high": fail_high_move(info, depth),
            }
        )
        if (i + 1) % 50 == 0:
            print(f"  {i + 1} positions searched", file=sys.stderr)
    engine.close()
    if not any(r["stopped"] for r in records):
        print("warning: no `stopped` trace line: not the GPU search (Backend cuda|opencl)?", file=sys.stderr)
    return records


def judge(args, records):
    """Each rule's move valued by the judge (centipawns, side to move; mates as +-(30000 - plies))
    where the rules disagree. python-chess drives the judge (tools/match/requirements.txt)."""
    import chess
    import chess.engine

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    judged = 0
    try:
        sf.configure({"Threads": args.sf_threads, "Hash": 256})
        for r in records:
            moves = rule_moves(r)
            r["rules"] = moves
            distinct = sorted(set(moves.values()))
            if len(distinct) < 2:
                continue
            board = chess.Board(r["fen"])
            r["values"] = {}
            for m in distinct:
                info = sf.analyse(
                    board,
                    chess.engine.Limit(depth=args.sf_depth),
                    root_moves=[chess.Move.from_uci(m)],
                    game=object(),  # a new game each time: `ucinewgame` first
                )
                r["values"][m] = info["score"].relative.score(mate_score=30000)
            judged += 1
    finally:
        sf.quit()
    print(f"  {judged} positions judged by Stockfish", file=sys.stderr)


def table(records, margin):
    stopped = sum(1 for r in records if r["stopped"])
    print(f"{len(records)} positions, {stopped} stopped in an iteration (trace); values by Stockfish")
    print(f"{'rule':>10} {'differs':>8} {'better':>7} {'worse':>6} {'mean cp':>8}")
    for rule in RULES:
        differs = better = worse = 0
        gain = 0
        for r in records:
            moves = r.get("rules") or rule_moves(r)
            if moves[rule] == moves["played"]:
                continue
            differs += 1
            values = r.get("values")
            if not values or values.get(moves[rule]) is None or values.get(moves["played"]) is None:
                continue
            d = max(-1000, min(1000, values[moves[rule]] - values[moves["played"]]))
            gain += d
            better += d > margin
            worse += d < -margin
        mean = gain / len(records) if records else 0.0
        print(f"{rule:>10} {differs:>8} {better:>7} {worse:>6} {mean:>+8.2f}")
    changed = sum(1 for r in records if (r.get("rules") or rule_moves(r))["completed"] != r["played"])
    print(f"the played move differs from the last completed depth's in {changed} positions")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine")
    ap.add_argument("--positions")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--movetime", type=int, default=300)
    ap.add_argument("--option", action="append", default=[], help="UCI option Name=Value")
    ap.add_argument("--stockfish")
    ap.add_argument("--sf-depth", type=int, default=18)
    ap.add_argument("--sf-threads", type=int, default=16)
    ap.add_argument("--margin", type=int, default=20, help="cp for better/worse (default 20)")
    ap.add_argument("--out", help="the records as JSON")
    ap.add_argument("--records", help="judge/print these records (JSON) instead of searching")
    args = ap.parse_args()
    if not args.records and not (args.engine and args.positions):
        ap.error("--engine and --positions are needed unless --records is given")
    if args.records:
        with open(args.records) as f:
            records = json.load(f)
    else:
        with open(args.positions) as f:
            fens = [fen_of(l) for l in f if l.strip()][: args.count]
        records = run_engine(args, fens)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(records, f)
    if args.stockfish and not any("values" in r for r in records):
        judge(args, records)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(records, f)
    table(records, args.margin)


if __name__ == "__main__":
    main()
