"""What the bench scripts that drive UCI engines share (time-to-depth.py, game-depths.py,
gpu-stop-moves.py): a FEN from a FEN or EPD line, and the options given as NAME:Option=Value."""


def fen_of(line: str) -> str:
    """A FEN line as it is; an EPD line's four fields with clocks of 0 and 1."""
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        return " ".join(fields[:6])
    return " ".join(fields[:4]) + " 0 1"


def options_for(name: str, specs: list[str]) -> dict:
    """The UCI options of engine `name` among `specs` ('NAME:Option=Value' each)."""
    options = {}
    for spec in specs:
        who, setting = spec.split(":", 1)
        if who == name:
            key, value = setting.split("=", 1)
            options[key] = value
    return options
