#!/usr/bin/env python3
"""An example lowest-unique-number player (Python 3 standard library only).

It bids low, but moves away from the numbers that other players have been bidding: each number's
weight is lowered by how often others chose it lately. Its random choices are seeded with its
player number, so a match with the same players plays the same way.
"""
import random
import sys


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    say("ready")
    me, maximum, rng = 0, 0, random.Random(0)
    crowd = {}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "you":
            me = int(words[1])
            rng = random.Random(me)
        elif words[0] == "game":
            maximum = int(words[3])
        elif words[0] == "round":
            weights = [1.0 / (bid ** 1.2) / (1 + crowd.get(bid, 0)) for bid in range(1, maximum + 1)]
            say(str(rng.choices(range(1, maximum + 1), weights)[0]))
        elif words[0] == "result":
            bids = [int(b) for b in words[2:-1]]
            for bid in crowd:
                crowd[bid] *= 0.7
            for p, bid in enumerate(bids, 1):
                if bid and p != me:
                    crowd[bid] = crowd.get(bid, 0) + 1
        elif words[0] == "end":
            return


if __name__ == "__main__":
    main()
