#!/usr/bin/env python3
"""An example connect-four player: wins when it can, blocks when it must, prefers the centre.

Reads the game stream on stdin, writes its moves on stdout (Python 3 standard library only).
"""
import sys


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def lands(board, col, rows):
    return board[col].index(0) if 0 in board[col] else None


def four(board, col, row, me, cols, rows):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < cols and 0 <= r < rows and board[c][r] == me:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 4:
            return True
    return False


def choose(board, me, cols, rows):
    legal = [c for c in range(cols) if lands(board, c, rows) is not None]
    for who in (me, 3 - me):  # win first, then block
        for c in legal:
            r = lands(board, c, rows)
            board[c][r] = who
            hit = four(board, c, r, who, cols, rows)
            board[c][r] = 0
            if hit:
                return c
    def gives_win(c):
        r = lands(board, c, rows)
        if r + 1 >= rows:
            return False
        board[c][r] = me
        board[c][r + 1] = 3 - me
        hit = four(board, c, r + 1, 3 - me, cols, rows)
        board[c][r] = board[c][r + 1] = 0
        return hit
    safe = [c for c in legal if not gives_win(c)] or legal
    return min(safe, key=lambda c: (abs(2 * c - (cols - 1)), c))


def main():
    say("ready")
    me, cols, rows, board = 0, 0, 0, None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "you":
            me = int(words[1])
        elif words[0] == "board":
            cols, rows = int(words[1]), int(words[2])
            board = [[0] * rows for _ in range(cols)]
            if me == 1:
                say(str(choose(board, me, cols, rows)))
        elif words[0] == "move":
            p, col = int(words[1]), int(words[2])
            board[col][board[col].index(0)] = p
            if p != me:
                say(str(choose(board, me, cols, rows)))
        elif words[0] == "end":
            return


if __name__ == "__main__":
    main()
