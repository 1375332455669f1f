#!/usr/bin/env python3
"""Connect four, a game server for the game-server protocol (Python 3 standard library only).

Two players drop discs into the columns of an upright board; the first to line up four of
their discs (across, down or diagonally) wins. Reads the controller's commands on stdin and
prints its own on stdout, one per line; draws itself with Hjson `vis` events.
"""
import sys

TURN_SECONDS = 0.6  # logical time of one move in the replay


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def num(x):
    return ("%.4f" % x).rstrip("0").rstrip(".")


def hjson(value):
    """Hjson with unquoted keys, as the visualizer accepts."""
    if isinstance(value, dict):
        return "{" + ",".join(k + ":" + hjson(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(hjson(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        return num(value)
    return str(value)


def vis(event):
    out("vis " + hjson(event))


COLORS = {1: "e03030ff", 2: "f0d020ff"}


class Game:
    def __init__(self, cols, rows, timeout):
        self.cols, self.rows, self.timeout = cols, rows, timeout
        self.board = [[0] * rows for _ in range(cols)]  # board[c][r], r = 0 is the bottom
        self.turn = 1
        self.moves = 0
        self.timer_id = 0
        self.next_id = 1000
        self.cell = 0.9 / max(cols, rows + 1)
        self.x0 = (1 - cols * self.cell) / 2
        self.y0 = (1 - (rows + 1) * self.cell) / 2 + self.cell  # top of the board; the row above is for dropping

    def center(self, col, row_from_top):
        return (self.x0 + (col + 0.5) * self.cell, self.y0 + (row_from_top + 0.5) * self.cell)

    def draw_board(self):
        w, h, c = self.cols * self.cell, self.rows * self.cell, self.cell
        vis({"t": 0.0, "create": {"id": 1, "z": 1, "geom": [{"poly": {"f": "2050c0ff", "vs": [
            [self.x0, self.y0], [self.x0 + w, self.y0], [self.x0 + w, self.y0 + h], [self.x0, self.y0 + h]]}}]}})
        for col in range(self.cols):
            holes = [{"circle": {"p": list(self.center(col, r)), "r": c * 0.38, "f": "ffffffff", "t": 0.002}}
                     for r in range(self.rows)]
            vis({"t": 0.0, "create": {"id": 10 + col, "z": 2, "geom": holes}})
        vis({"t": 0.0, "log": {"line": "Connect four on %d x %d" % (self.cols, self.rows)}})

    def drop(self, col):
        row = self.board[col].index(0)
        self.board[col][row] = self.turn
        self.moves += 1
        t = self.moves * TURN_SECONDS
        self.next_id += 1
        x, y = self.center(col, -1)
        vis({"t": t, "create": {"id": self.next_id, "z": 3, "p": [x, y],
                                "geom": [{"circle": {"r": self.cell * 0.38, "f": COLORS[self.turn], "t": 0.003}}]}})
        fall = self.rows - row
        vis({"t": t, "transform": {"id": self.next_id, "d": 0.05 * fall + 0.1, "f": "easin", "mv": [0, fall * self.cell]}})
        vis({"t": t, "log": {"line": "Player %d plays column %d" % (self.turn, col)}})
        return row

    def wins(self, col, row):
        me = self.board[col][row]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < self.cols and 0 <= r < self.rows and self.board[c][r] == me:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= 4:
                return True
        return False

    def arm_timer(self):
        self.timer_id += 1
        out("timer %d %dms" % (self.timer_id, int(self.timeout * 1000)))

    def finish(self, winner, reason):
        out("sendall end %d" % winner)
        vis({"t": (self.moves + 1) * TURN_SECONDS, "log": {"line": reason}})
        scores = {0: "0.5 0.5", 1: "1 0", 2: "0 1"}[winner]
        out("over %s %s" % (scores, reason))
        sys.exit(0)


def main():
    lines = iter(sys.stdin.readline, "")
    first = next(lines).strip()
    if first not in ("vis inline", "vis none"):
        sys.exit("expected the vis line, got %r" % first)
    params = next(lines).split()
    cols, rows, timeout = int(params[2]), int(params[3]), float(params[4])
    game = Game(cols, rows, timeout)
    game.draw_board()
    dropped = set()
    for line in lines:
        words = line.rstrip("\n").split(" ", 2)
        if words[0] == "start":
            break
        if words[0] == "dropped":
            dropped.add(int(words[1]))
    out("send 1 you 1")
    out("send 2 you 2")
    out("sendall board %d %d" % (cols, rows))
    for p in sorted(dropped):
        game.finish(3 - p, "Player %d was not ready" % p)
    game.arm_timer()
    for line in lines:
        words = line.rstrip("\n").split(" ", 2)
        if words[0] == "dropped":
            game.finish(3 - int(words[1]), "Player %s left" % words[1])
        elif words[0] == "timeout":
            if int(words[1]) == game.timer_id:
                game.finish(3 - game.turn, "Player %d ran out of time" % game.turn)
        elif words[0] == "recv":
            p, text = int(words[1]), words[2] if len(words) > 2 else ""
            if p != game.turn:
                out("playererror %d it is not your turn" % p)
                continue
            try:
                col = int(text)
            except ValueError:
                col = -1
            if not (0 <= col < cols) or game.board[col][rows - 1] != 0:
                game.finish(3 - p, "Player %d made an illegal move: %s" % (p, text[:40]))
            row = game.drop(col)
            out("sendall move %d %d" % (p, col))
            if game.wins(col, row):
                game.finish(p, "Player %d connected four" % p)
            if game.moves == cols * rows:
                game.finish(0, "The board is full: draw")
            game.turn = 3 - game.turn
            game.arm_timer()
    sys.exit("the controller closed the input")


if __name__ == "__main__":
    main()
