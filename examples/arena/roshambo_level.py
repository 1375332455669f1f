#!/usr/bin/env python3
"""A roshambo player of known strength, for the arena (docs/arena.md).

    coco arena roshambo -n level2 -- python3 examples/arena/roshambo_level.py 2

Level 0 always plays ROCK. Level k (k >= 1) keeps, for each lower level j, a model of "the
opponent is a level-j player" (it replays level j from the opponent's side of the game so far),
follows the model that has predicted best so far (ties: the highest level) and plays what beats
its prediction. So a level-k player beats every lower level almost every round, and meets its own
level in a draw: in a ladder of levels 0 to 3 the ranking is known in advance, which is what the
arena's ranking test checks. Standard library only; deterministic.
"""

import sys

COUNTER = {"ROCK": "PAPER", "PAPER": "SCISSORS", "SCISSORS": "ROCK"}


def move(level, mine, theirs):
    """Level `level`'s next gesture, given its own gestures so far and the opponent's."""
    if level == 0:
        return "ROCK"
    best, best_hits = level - 1, -1
    for j in range(level - 1, -1, -1):
        hits = sum(1 for s in range(len(theirs)) if move(j, theirs[:s], mine[:s]) == theirs[s])
        if hits > best_hits:
            best, best_hits = j, hits
    return COUNTER[move(best, theirs, mine)]


def read_line():
    line = sys.stdin.readline()
    return None if not line else line.rstrip("\r\n")


def main():
    level = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    me, opponent, rounds = read_line(), read_line(), read_line()
    if rounds is None:
        return
    mine, theirs = [], []
    for _ in range(int(rounds)):
        gesture = move(level, mine, theirs)
        print(gesture, flush=True)
        answer = read_line()
        if answer is None or answer == "RETIRE":
            break
        mine.append(gesture)
        theirs.append(answer)


if __name__ == "__main__":
    main()
