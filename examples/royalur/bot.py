#!/usr/bin/env python3
"""Example Royal Game of Ur player for Code Colosseum (standard library only).

Over the stdio channel (the default):
    coco connect MATCH_ID -- python3 examples/royalur/bot.py
Over the pipe channel, where coco passes the pipes' names in COCO_PIPEIN and COCO_PIPEOUT:
    coco connect -c pipe MATCH_ID -- python3 examples/royalur/bot.py

The program keeps its own copy of the board, updated from the rolls and the moves it reads, and
picks its moves by simple rules of thumb: capture, land on a rosette, take tokens out, keep
tokens out of reach of the opponent's.
"""

import os
import sys

TOKENS = 7
START = 0  # a token not yet on the track
END = 15  # a token past the last (fourteenth) cell
ROSETTES = (4, 8, 14)
CENTRAL_ROSETTE = 8
SHARED = range(5, 13)  # cells 5..12 are the same cells for both players
# Chance of each roll 0..4 with four coins: 1, 4, 6, 4, 1 out of 16.
ROLL_CHANCE = (1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16)


class Board:
    def __init__(self):
        # positions[player][token]: START, 1..14 on the track, or END.
        self.positions = [[START] * TOKENS, [START] * TOKENS]

    def target(self, player, token, roll):
        """Where the token would land, or None if it cannot move."""
        here = self.positions[player][token]
        if roll == 0 or here == END or here + roll > END:
            return None
        there = here + roll
        if there == END:
            return there
        if there in self.positions[player]:
            return None  # own token there
        if there == CENTRAL_ROSETTE and there in self.positions[1 - player]:
            return None  # an occupied rosette is safe
        return there

    def valid_moves(self, player, roll):
        return [t for t in range(TOKENS) if self.target(player, t, roll) is not None]

    def move(self, player, token, roll):
        """Plays a move; returns True when the player rolls again (it landed on a rosette)."""
        there = self.target(player, token, roll)
        self.positions[player][token] = there
        theirs = self.positions[1 - player]
        if there in SHARED and there in theirs:
            theirs[theirs.index(there)] = START  # captured
        return there in ROSETTES

    def finished(self, player):
        return all(p == END for p in self.positions[player])


def threat(board, player, cell):
    """Chance that the opponent can hit a token of `player` on `cell` with its next roll."""
    if cell not in SHARED or cell == CENTRAL_ROSETTE:
        return 0.0
    theirs = board.positions[1 - player]
    return sum(ROLL_CHANCE[d] for d in range(1, 5) if cell - d in theirs)


def score(board, player, token, roll):
    here = board.positions[player][token]
    there = board.target(player, token, roll)
    value = roll * 0.1  # all else equal, go further
    if there == END:
        value += 6
    if there in ROSETTES:
        value += 10 if there == CENTRAL_ROSETTE else 7
    if there in SHARED and there in board.positions[1 - player]:
        value += 8 + there * 0.5  # a capture, worth more the further it sends them back
    value -= 12 * threat(board, player, there) if there != END else 0
    value += 8 * threat(board, player, here)  # running away from danger
    if here == CENTRAL_ROSETTE:
        value -= 4  # leaving the safe square
    return value


def choose(board, player, roll):
    moves = board.valid_moves(player, roll)
    return max(moves, key=lambda token: score(board, player, token, roll))


def open_channel():
    """Files to read from and write to: the named pipes when coco gives them, else stdio."""
    pipe_in = os.environ.get("COCO_PIPEIN")
    pipe_out = os.environ.get("COCO_PIPEOUT")
    # Open both pipes before anything else: coco waits for that to start the program.
    fin = open(pipe_in, "r") if pipe_in else sys.stdin
    fout = open(pipe_out, "w") if pipe_out else sys.stdout
    return fin, fout


def main():
    fin, fout = open_channel()

    def read_line():
        line = fin.readline()
        return line.rstrip("\r\n") if line else None

    names = [read_line(), read_line()]
    index = read_line()
    if index is None:
        return
    me = int(index)
    board = Board()
    turn = 0  # the first player rolls first
    while True:
        line = read_line()
        if line is None or line == "RETIRE":
            break
        roll = sum(int(coin) for coin in line.split())
        if not board.valid_moves(turn, roll):
            turn = 1 - turn  # no move: the other player rolls at once
            continue
        if turn == me:
            token = choose(board, me, roll)
            print(token, file=fout, flush=True)
        else:
            answer = read_line()
            if answer is None or answer == "RETIRE":
                print(f"{names[1 - me]} retired", file=sys.stderr)
                break
            token = int(answer)
        again = board.move(turn, token, roll)
        if board.finished(turn):
            print(f"{names[turn]} wins", file=sys.stderr)
            break
        if not again:
            turn = 1 - turn


if __name__ == "__main__":
    main()
