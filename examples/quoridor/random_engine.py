#!/usr/bin/env python3
"""A Quoridor engine speaking the Quoridor Text Protocol (QTP) that plays random legal pawn moves.

It never places walls, but it keeps track of the walls its opponent places, so that its pawn
moves stay legal. Standard library only. Try it by hand:

    python3 random_engine.py
    boardsize 9
    clear_board
    walls 10
    genmove black
    = E8

Play it on Code Colosseum with `coco connect` (or any way that runs it as the player program).
"""
import random
import sys

NAME = "random-pawn"

# Directions: (column step, row step); rows count from the bottom (row 0 is QTP row 1).
NORTH, EAST, SOUTH, WEST = (0, 1), (1, 0), (0, -1), (-1, 0)


class Game:
    def __init__(self, size=9, walls=10):
        self.size = size
        self.walls_each = walls
        self.clear()

    def clear(self):
        middle = (self.size - 1) // 2
        self.pawns = {"white": (middle, 0), "black": (middle, self.size - 1)}
        self.walls = {}  # (column, row) of the wall's north-west square -> "h" or "v"
        self.history = []

    def blocked(self, square, direction):
        """Whether a wall or the board's edge stops a step from square in direction."""
        c, r = square
        dc, dr = direction
        if not (0 <= c + dc < self.size and 0 <= r + dr < self.size):
            return True
        if direction == NORTH:
            return self.walls.get((c - 1, r + 1)) == "h" or self.walls.get((c, r + 1)) == "h"
        if direction == SOUTH:
            return self.walls.get((c - 1, r)) == "h" or self.walls.get((c, r)) == "h"
        if direction == EAST:
            return self.walls.get((c, r)) == "v" or self.walls.get((c, r + 1)) == "v"
        return self.walls.get((c - 1, r)) == "v" or self.walls.get((c - 1, r + 1)) == "v"

    def pawn_moves(self, color):
        me = self.pawns[color]
        other = self.pawns["black" if color == "white" else "white"]
        moves = []
        for d in (NORTH, EAST, SOUTH, WEST):
            if self.blocked(me, d):
                continue
            step = (me[0] + d[0], me[1] + d[1])
            if step != other:
                moves.append(step)
            elif not self.blocked(step, d):
                moves.append((step[0] + d[0], step[1] + d[1]))  # jump over the other pawn
            else:
                for side in ((d[1], d[0]), (-d[1], -d[0])):  # sidesteps beside the other pawn
                    if not self.blocked(step, side):
                        moves.append((step[0] + side[0], step[1] + side[1]))
        return moves

    def winner(self):
        if self.pawns["white"][1] == self.size - 1:
            return "white"
        if self.pawns["black"][1] == 0:
            return "black"
        return None


def parse_vertex(text, size):
    """'e2' or 'E2' -> (4, 1); None when malformed or off the board."""
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    column, row = ord(text[0].upper()) - ord("A"), int(text[1:]) - 1
    if 0 <= column < size and 0 <= row < size:
        return column, row
    return None


def vertex(square):
    return "%s%d" % (chr(ord("A") + square[0]), square[1] + 1)


def parse_color(text):
    return {"white": "white", "w": "white", "black": "black", "b": "black"}.get(text.lower())


COMMANDS = ["name", "known_command", "list_commands", "quit", "boardsize", "clear_board", "walls",
            "playmove", "playwall", "genmove", "undo", "winner"]


def handle(game, rng, words):
    """Returns (ok, text) for one command."""
    command, args = words[0], words[1:]
    if command == "name":
        return True, NAME
    if command == "known_command":
        return True, "true" if args and args[0] in COMMANDS else "false"
    if command == "list_commands":
        return True, "\n".join(COMMANDS)
    if command == "boardsize":
        if len(args) != 1 or not args[0].isdigit():
            return False, "syntax error"
        size = int(args[0])
        if size < 3 or size > 25 or size % 2 == 0:
            return False, "unacceptable size"
        game.size = size
        game.clear()
        return True, ""
    if command == "clear_board":
        game.clear()
        return True, ""
    if command == "walls":
        if len(args) != 1 or not args[0].isdigit():
            return False, "syntax error"
        game.walls_each = int(args[0])
        return True, ""
    if command == "playmove":
        color = parse_color(args[0]) if len(args) == 2 else None
        square = parse_vertex(args[1], game.size) if color else None
        if square is None or square not in game.pawn_moves(color):
            return False, "illegal move"
        game.history.append(("pawn", color, game.pawns[color]))
        game.pawns[color] = square
        return True, ""
    if command == "playwall":
        # Trusts the controller about the wall's legality; only remembers where it is.
        color = parse_color(args[0]) if len(args) == 3 else None
        square = parse_vertex(args[1], game.size) if color else None
        orientation = args[2].lower()[:1] if color else ""
        if square is None or orientation not in ("h", "v") or (square[0], square[1]) in game.walls:
            return False, "illegal move"
        game.walls[square] = orientation
        game.history.append(("wall", color, square))
        return True, ""
    if command == "genmove":
        color = parse_color(args[0]) if len(args) == 1 else None
        if color is None:
            return False, "syntax error"
        moves = game.pawn_moves(color)
        if not moves or game.winner():
            return False, "no move"
        square = rng.choice(moves)
        game.history.append(("pawn", color, game.pawns[color]))
        game.pawns[color] = square
        return True, vertex(square)
    if command == "undo":
        if not game.history:
            return False, "cannot undo"
        kind, color, where = game.history.pop()
        if kind == "pawn":
            game.pawns[color] = where
        else:
            del game.walls[where]
        return True, ""
    if command == "winner":
        winner = game.winner()
        return True, "true " + winner if winner else "false"
    if command == "quit":
        return True, ""
    return False, "unknown command"


def main():
    seed = None
    argv = sys.argv[1:]
    for i, arg in enumerate(argv):
        if arg in ("-seed", "--seed") and i + 1 < len(argv):
            seed = argv[i + 1]
    rng = random.Random(seed)
    game = Game()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            return
        # QTP preprocessing: drop control characters (but tabs), cut comments, tabs become spaces.
        line = "".join(ch for ch in raw.decode("latin-1") if ch == "\t" or ord(ch) >= 32 and ord(ch) != 127)
        line = line.split("#", 1)[0].replace("\t", " ").strip()
        if not line:
            continue
        words = line.split()
        ok, text = handle(game, rng, words)
        sys.stdout.write(("=" if ok else "?") + (" " + text if text else "") + "\n\n")
        sys.stdout.flush()
        if words[0] == "quit":
            return


if __name__ == "__main__":
    main()
