#!/usr/bin/env python3
"""Example player for dama (Italian draughts) on Code Colosseum. Python 3 standard library only.

It reads the game stream on stdin and answers on stdout. It learns its colour from
`Sei i Bianchi` / `Sei i Neri`, keeps the last board it was sent (it ignores the opponent's
echoed move, since the board that follows shows it), and when it sees the prompt (`Es > ...`) it
lists the legal moves under the Italian rules and plays greedily: the move after
which it is best off in material once the opponent has made its best immediate reply. Ties are
broken at random (`--seed N` makes it repeatable; `--random` plays uniformly at random).

A prompt repeated after a refusal (the server's message, then the prompt again) makes it try another
legal move. It stops at `Game Over ;)`, the last line of every game.

Connect it to a match with the coco client (which joins a program's stdin and stdout to a seat).
`python3 bot.py --perft N` prints the move-generation counts from the start position instead.
"""
import random
import re
import sys

WHITE, BLACK = 1, -1                      # side signs; men are +-1, kings +-2
GLYPH = {' ': 0, 'b': 1, 'B': 2, 'n': -1, 'N': -2}
ROW_LINE = re.compile(r'^([1-8]) ((?:\[[ bBnN]\]){8}) ([1-8])$')
PROMPT = 'Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...'
GAME_OVER = 'Game Over ;)'
DIRECTIONS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]   # white men use the first two, black men the last two


def start_board():
    board = [[0] * 8 for _ in range(8)]
    for r in range(8):
        for c in range(8):
            if (r + c) % 2 == 1:
                if r < 3:
                    board[r][c] = BLACK
                elif r > 4:
                    board[r][c] = WHITE
    return board


def directions(piece, side):
    if abs(piece) == 2:
        return DIRECTIONS
    return DIRECTIONS[:2] if side == WHITE else DIRECTIONS[2:]


def captures_from(board, r, c, piece, side, path, taken, out):
    """Depth-first search of capture sequences; only complete sequences are recorded."""
    king = abs(piece) == 2
    extended = False
    for dr, dc in directions(piece, side):
        mr, mc, lr, lc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not (0 <= lr < 8 and 0 <= lc < 8):
            continue
        victim = board[mr][mc]
        if victim == 0 or victim * side > 0 or (mr, mc) in [t[0] for t in taken]:
            continue
        if not king and abs(victim) == 2:
            continue                      # men cannot capture kings
        if board[lr][lc] != 0:
            continue
        extended = True
        step = (path + [(lr, lc)], taken + [((mr, mc), victim)])
        if not king and lr == (0 if side == WHITE else 7):
            out.append((step[0], step[1], piece))   # promotion ends the move
        else:
            captures_from(board, lr, lc, piece, side, step[0], step[1], out)
    if not extended and taken:
        out.append((path, taken, piece))


def rank(capture):
    """Italian priorities: most pieces, then by a king, then most kings, then earliest king."""
    path, taken, piece = capture
    kings = [i for i, (_, v) in enumerate(taken) if abs(v) == 2]
    return (len(taken), abs(piece) == 2, len(kings), -kings[0] if kings else -99)


def legal_moves(board, side):
    """Each move is (path, taken, piece): path the squares visited, taken [((r, c), piece), ...]."""
    captures = []
    for r in range(8):
        for c in range(8):
            piece = board[r][c]
            if piece * side > 0:
                board[r][c] = 0           # the moving piece leaves its square at once
                captures_from(board, r, c, piece, side, [(r, c)], [], captures)
                board[r][c] = piece
    if captures:
        best = max(rank(m) for m in captures)
        return [m for m in captures if rank(m) == best]
    steps = []
    for r in range(8):
        for c in range(8):
            piece = board[r][c]
            if piece * side > 0:
                for dr, dc in directions(piece, side):
                    tr, tc = r + dr, c + dc
                    if 0 <= tr < 8 and 0 <= tc < 8 and board[tr][tc] == 0:
                        steps.append(([(r, c), (tr, tc)], [], piece))
    return steps


def apply(board, move, side):
    path, taken, piece = move
    after = [row[:] for row in board]
    (r0, c0), (r1, c1) = path[0], path[-1]
    after[r0][c0] = 0
    for (r, c), _ in taken:
        after[r][c] = 0
    if abs(piece) == 1 and r1 == (0 if side == WHITE else 7):
        piece *= 2
    after[r1][c1] = piece
    return after


def material(board, side):
    return sum(p * side * (1 if abs(p) == 1 else 2.5) for row in board for p in row)


def choose(board, side, rng, greedy):
    moves = legal_moves(board, side)
    if not moves:
        return None
    if not greedy:
        return rng.choice(moves)

    def value(move):
        after = apply(board, move, side)
        replies = legal_moves(after, -side)
        if not replies:
            return 1000
        return min(material(apply(after, reply, -side), side) for reply in replies)

    scored = [(value(m), rng.random(), m) for m in moves]
    return max(scored, key=lambda s: (s[0], s[1]))[2]


def move_text(move):
    return ' '.join(f'{r + 1}{"abcdefgh"[c]}' for r, c in move[0])


def perft(board, side, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(board, m, side), -side, depth - 1) for m in moves)


def main():
    args = sys.argv[1:]
    if args[:1] == ['--perft']:
        board = start_board()
        for depth in range(1, int(args[1]) + 1):
            print(depth, perft(board, WHITE, depth), flush=True)
        return
    seed = int(args[args.index('--seed') + 1]) if '--seed' in args else None
    rng = random.Random(seed)
    greedy = '--random' not in args
    side = None
    board = None
    rows = {}
    tried = set()
    for raw in sys.stdin:
        line = raw.rstrip('\n')
        m = ROW_LINE.match(line)
        if m:
            rows[int(m.group(1)) - 1] = [GLYPH[m.group(2)[i * 3 + 1]] for i in range(8)]
            if len(rows) == 8:
                board = [rows[r] for r in range(8)]
                rows = {}
                tried = set()
            continue
        if line == 'Sei i Bianchi':
            side = WHITE
        elif line == 'Sei i Neri':
            side = BLACK
        elif line == GAME_OVER:
            return
        elif line == PROMPT and side is not None and board is not None:
            move = choose(board, side, rng, greedy)
            if move is None:
                return
            text = move_text(move)
            if text in tried:             # rejected before: fall back to any untried legal move
                others = [move_text(m) for m in legal_moves(board, side) if move_text(m) not in tried]
                text = others[0] if others else text
            tried.add(text)
            print(text, flush=True)


if __name__ == '__main__':
    main()
