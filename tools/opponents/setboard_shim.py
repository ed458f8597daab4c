#!/usr/bin/env python3
"""Lets python-chess drive an xboard engine that has no `setboard` (Fairy-Max).

python-chess refuses xboard engines that do not declare `feature setboard=1`, although it sends
`setboard` only for games that do not start from the initial position. With
`match.py --openings-from-start` every game does, so this shim runs the engine, declares the
feature on its behalf, and passes everything else through unchanged. Should a `setboard` come
anyway, it says so and exits, so the harness reports a crash instead of a game from the wrong
position.

Usage: setboard_shim.py ENGINE [ARGS...]
"""

from __future__ import annotations

import subprocess
import sys
import threading


def pump_engine_output(engine: subprocess.Popen[str]) -> None:
    assert engine.stdout is not None
    for line in engine.stdout:
        if line.startswith("feature") and "setboard=0" in line:
            line = line.replace("setboard=0", "setboard=1")
        sys.stdout.write(line)
        sys.stdout.flush()


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    engine = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    assert engine.stdin is not None
    reader = threading.Thread(target=pump_engine_output, args=(engine,), daemon=True)
    reader.start()
    for line in sys.stdin:
        if line.startswith("setboard"):
            print("Error (setboard not supported by this engine): " + line.strip(), flush=True)
            engine.kill()
            return 1
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.strip() == "quit":
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    code = engine.wait()
    reader.join(timeout=1)
    return code


if __name__ == "__main__":
    sys.exit(main())
