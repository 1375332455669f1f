#!/usr/bin/env python3
"""A clobber player that plays a random legal move, for the 2006 tournament stream.

Usage: bot.py [NAME [SEED]]

It first sends `play clobber NAME`, then for each game reads `m n b` (columns, rows, 1 if it is
black and moves first), keeps the board, answers each opponent move with a move of its own, and
treats `error` and `end` as the end of the game at hand. The server starts each game with a new
`m n b` line and closes the stream after the last game. Python 3 standard library only.
Run it through coco (`coco connect ID -- python3 bot.py`) or against a clobber TCP port.
"""
import random
import sys

EMPTY, BLACK, WHITE = ".", "x", "o"


def new_board(columns, rows):
    """board[row][column], both counted from 0; a1 is black, colours alternate."""
    return [[BLACK if (c + r) % 2 == 0 else WHITE for c in range(columns)] for r in range(rows)]


def legal_moves(board, me):
    them = WHITE if me == BLACK else BLACK
    rows, columns = len(board), len(board[0])
    moves = []
    for r in range(rows):
        for c in range(columns):
            if board[r][c] != me:
                continue
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < columns and board[rr][cc] == them:
                    moves.append((c, r, cc, rr))
    return moves


def apply(board, move):
    c1, r1, c2, r2 = move
    board[r2][c2] = board[r1][c1]
    board[r1][c1] = EMPTY


def format_move(move):
    c1, r1, c2, r2 = move
    return "%s %d %s %d" % (chr(97 + c1), r1 + 1, chr(97 + c2), r2 + 1)


def parse_move(words):
    c1, r1, c2, r2 = words
    return (ord(c1.lower()) - 97, int(r1) - 1, ord(c2.lower()) - 97, int(r2) - 1)


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "pybot"
    rng = random.Random(sys.argv[2] if len(sys.argv) > 2 else None)
    send("play clobber " + name)
    board = None
    me = BLACK
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # the server closed the stream: the match is over
        words = line.split()
        if len(words) == 3:  # a new game: m n b
            columns, rows, black = int(words[0]), int(words[1]), words[2] == "1"
            board = new_board(columns, rows)
            me = BLACK if black else WHITE
            if not black:
                continue  # white waits for black's first move
        elif len(words) == 4 and board is not None:  # the opponent's move
            apply(board, parse_move(words))
        else:  # `error` (our fault) or `end` (the opponent's): this game is over
            board = None
            continue
        moves = legal_moves(board, me)
        if not moves:
            # We cannot move, so we have lost; the server starts the next game by itself.
            board = None
            continue
        move = rng.choice(moves)
        apply(board, move)
        send(format_move(move))


if __name__ == "__main__":
    main()
