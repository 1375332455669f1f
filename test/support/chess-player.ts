/**
 * A scripted chess player for the browser tests that need a chess match with a timed-out seat
 * (match-record, match-clocks), run with python3 through coco.
 */

/** Chess: the seconds a player may take per move here: the silent one loses in that time, and a program starting on a busy machine (seen taking 2.5 s) does not. */
export const CHESS_TIMEOUT = 10;

/** Plays its colour's moves (White f3 g4, Black e5), then stays silent: Black does not move in time. */
export const CHESS_PLAYER = String.raw`
import sys, time
white = sys.stdin.readline(); black = sys.stdin.readline(); colour = sys.stdin.readline().strip()
moves = {'0': ['f2 f3', 'g2 g4'], '1': ['e7 e5']}[colour]
mine = 0 if colour == '0' else 1
played = 0
while True:
    if played % 2 == mine:
        if not moves:
            time.sleep(60)
            break
        print(moves.pop(0), flush=True)
    line = sys.stdin.readline()
    if not line or not line.startswith('OK '):
        break
    played += 1
`;
