#!/usr/bin/env python3
"""Example roshambo (Rock Paper Scissors) player for Code Colosseum.

Reads the game stream on stdin and writes its moves on stdout, so it runs as it is with
    coco connect MATCH_ID -- python3 examples/roshambo/bot.py

Strategy: play what beats the gesture the opponent has shown most often so far, at random
while there is no evidence (or a tie). Standard library only.
"""

import random
import sys

GESTURES = ("ROCK", "PAPER", "SCISSORS")
# The gesture that beats each gesture.
COUNTER = {"ROCK": "PAPER", "PAPER": "SCISSORS", "SCISSORS": "ROCK"}


def read_line():
    """The next line without its end of line, or None at the end of the stream."""
    line = sys.stdin.readline()
    if not line:
        return None
    return line.rstrip("\r\n")


def send(text):
    # Flush after every line: coco only sees what leaves the buffer.
    print(text, flush=True)


def choose(seen):
    most = max(seen.values())
    likely = [gesture for gesture, count in seen.items() if count == most]
    if most == 0 or len(likely) > 1:
        return random.choice(GESTURES)
    return COUNTER[likely[0]]


def main():
    me = read_line()
    opponent = read_line()
    rounds = read_line()
    if rounds is None:
        return
    seen = {gesture: 0 for gesture in GESTURES}
    score = [0, 0]
    for _ in range(int(rounds)):
        mine = choose(seen)
        send(mine)
        theirs = read_line()
        if theirs is None:
            break
        if theirs == "RETIRE":
            print(f"{opponent} retired", file=sys.stderr)
            break
        if theirs in seen:
            seen[theirs] += 1
            if COUNTER[theirs] == mine:
                score[0] += 1
            elif COUNTER[mine] == theirs:
                score[1] += 1
    # stderr is free for messages to the terminal.
    print(f"{me} {score[0]} - {score[1]} {opponent}", file=sys.stderr)


if __name__ == "__main__":
    main()
