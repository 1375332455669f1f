#!/usr/bin/env python3
"""A Hase und Igel (Software-Challenge 2018) client that plays random legal moves.

It reads the server's XML stream from stdin and writes its own to stdout, so it runs as a
Code Colosseum program (`ID=$(coco new hase-und-igel -b 1)`, then
`coco connect $ID -- python3 examples/hase-und-igel/random_client.py`) and, with a small socket
wrapper, against a Software-Challenge server. Python 3 standard library only.

The server ends its messages without a line break, so the stream is read in chunks and parsed
incrementally; a move is sent on the start tag of the move request. Every message this client
sends ends with a line break, as the platform passes on what a program prints line by line.
"""
import math
import os
import random
import sys
import xml.etree.ElementTree as ET

MOVE_REQUEST = "sc.framework.plugins.protocol.MoveRequest"
CARDS = ["TAKE_OR_DROP_CARROTS", "EAT_SALAD", "HURRY_AHEAD", "FALL_BACK"]
GOAL = 64


# ---- the rules (as the 2018 server applies them) ----

def cost(n):
    return n * (n + 1) // 2


def reach(carrots):
    if carrots >= 990:
        return 44
    if carrots < 1:
        return 0
    return int(math.sqrt(2 * carrots + 0.25) - 0.48)


def field(board, i):
    return board[i] if 0 <= i < len(board) else "INVALID"


def occupied(me, other, i):
    return i != GOAL and (me["index"] == i or other["index"] == i)


def is_first(me, other):
    if me["index"] == GOAL and other["index"] == GOAL:
        return me["carrots"] <= other["carrots"]
    return me["index"] >= other["index"]


def must_advance(board, me):
    if board[me["index"]] in ("HEDGEHOG", "START"):
        return True
    last = me["last"]
    return last is not None and (last[0] == "eatSalad" or (last[0] == "card" and last[1] in ("EAT_SALAD", "TAKE_OR_DROP_CARROTS")))


def must_eat(board, me):
    last = me["last"]
    if board[me["index"]] != "SALAD" or last is None:
        return False
    return last[0] == "advance" or (last[0] == "card" and last[1] in ("FALL_BACK", "HURRY_AHEAD"))


def previous_hedgehog(board, i):
    for j in range(i - 1, -1, -1):
        if board[j] == "HEDGEHOG":
            return j
    return -1


def moved(me, **changes):
    copy = dict(me)
    copy.update(changes)
    return copy


def can_play_any(board, me, other):
    return any(card_ok(board, me, other, c, 20) for c in me["cards"])


def advance_ok(board, me, other, d):
    if d <= 0 or must_eat(board, me) or cost(d) > me["carrots"]:
        return False
    target = me["index"] + d
    if occupied(me, other, target):
        return False
    kind = field(board, target)
    if kind in ("INVALID", "HEDGEHOG"):
        return False
    if kind == "SALAD":
        return me["salads"] > 0
    if kind == "HARE":
        return can_play_any(board, moved(me, index=target, carrots=me["carrots"] - cost(d), last=("advance", None)), other)
    if kind == "GOAL":
        return me["carrots"] - cost(d) <= 10 and me["salads"] == 0
    return True


def card_ok(board, me, other, c, value):
    if must_advance(board, me) or board[me["index"]] != "HARE" or c not in me["cards"]:
        return False
    if c == "EAT_SALAD":
        return me["salads"] > 0
    if c == "TAKE_OR_DROP_CARROTS":
        return value in (20, 0, -20) and me["carrots"] + value >= 0
    if c == "HURRY_AHEAD":
        if is_first(me, other):
            return False
        target = other["index"] + 1
    else:
        if not is_first(me, other):
            return False
        target = other["index"] - 1
        if target == 0:
            return False
    kind = field(board, target)
    if kind in ("INVALID", "HEDGEHOG") or (kind == "GOAL" and c == "FALL_BACK"):
        return False
    if kind == "SALAD":
        return me["salads"] > 0
    if kind == "HARE":
        rest = [x for x in me["cards"] if x != c]
        return can_play_any(board, moved(me, index=target, last=("card", c), cards=rest), other)
    if kind == "GOAL":
        return me["carrots"] <= 10 and me["salads"] == 0
    return True


def perform(board, me, other, action):
    """The player after `action`, or None if the action is not allowed."""
    kind = action[0]
    if kind == "advance":
        d = action[1]
        if not advance_ok(board, me, other, d):
            return None
        target = me["index"] + d
        return moved(me, index=target, carrots=me["carrots"] - cost(d), must_play=board[target] == "HARE", last=("advance", None))
    if kind == "fallBack":
        target = previous_hedgehog(board, me["index"])
        if must_eat(board, me) or target == -1 or occupied(me, other, target):
            return None
        return moved(me, index=target, carrots=me["carrots"] + 10 * (me["index"] - target), last=("fallBack", None))
    if kind == "eatSalad":
        if board[me["index"]] != "SALAD" or me["salads"] == 0 or must_advance(board, me):
            return None
        gain = 10 if me["index"] > other["index"] else 30
        return moved(me, salads=me["salads"] - 1, carrots=me["carrots"] + gain, last=("eatSalad", None))
    if kind == "exchangeCarrots":
        v = action[1]
        if board[me["index"]] != "CARROT" or v not in (10, -10) or me["carrots"] + v < 0:
            return None
        return moved(me, carrots=me["carrots"] + v, last=("exchangeCarrots", None))
    if kind == "card":
        c, v = action[1], action[2]
        me = moved(me, must_play=False)
        if not card_ok(board, me, other, c, v):
            return None
        rest = [x for x in me["cards"] if x != c]
        if c == "EAT_SALAD":
            me = moved(me, salads=me["salads"] - 1, carrots=me["carrots"] + (10 if is_first(me, other) else 30))
        elif c == "TAKE_OR_DROP_CARROTS":
            me = moved(me, carrots=me["carrots"] + v)
        else:
            target = other["index"] + (1 if c == "HURRY_AHEAD" else -1)
            me = moved(me, index=target, must_play=board[target] == "HARE")
        return moved(me, cards=rest, last=("card", c))
    return None


def card_actions():
    actions = []
    for c in CARDS:
        for v in ((20, -20, 0) if c == "TAKE_OR_DROP_CARROTS" else (0,)):
            actions.append(("card", c, v))
    return actions


def legal_moves(board, me, other):
    moves = []

    def extend(player, prefix):
        if prefix:
            candidates = card_actions()
        else:
            candidates = [("advance", d) for d in range(1, min(reach(player["carrots"]), GOAL - player["index"]) + 1)]
            candidates += [("fallBack",), ("eatSalad",), ("exchangeCarrots", 10), ("exchangeCarrots", -10)] + card_actions()
        for action in candidates:
            after = perform(board, player, other, action)
            if after is None:
                continue
            if after["must_play"]:
                extend(after, prefix + [action])
            else:
                moves.append(prefix + [action])

    extend(me, [])
    return moves or [[("skip",)]]


# ---- the protocol ----

def read_player(element):
    last = element.find("lastNonSkipAction")
    last_action = None
    if last is not None:
        last_action = (last.get("class"), last.get("type"))
    hand = element.find("cards")
    cards = [t.text.strip() for t in (list(hand) if hand is not None else [])]
    return {
        "index": int(element.get("index")),
        "carrots": int(element.get("carrots")),
        "salads": int(element.get("salads")),
        "cards": cards,
        "last": last_action,
        "must_play": False,
    }


def read_state(state):
    board = ["INVALID"] * 65
    for f in state.find("board"):
        board[int(f.get("index"))] = f.get("type")
    players = {"RED": read_player(state.find("red")), "BLUE": read_player(state.find("blue"))}
    return board, players, state.get("currentPlayer")


def render_move(room_id, actions):
    lines = ['  <room roomId="%s">' % room_id, '    <data class="move">']
    for order, action in enumerate(actions):
        kind = action[0]
        if kind == "advance":
            lines.append('      <advance order="%d" distance="%d"/>' % (order, action[1]))
        elif kind == "card":
            lines.append('      <card order="%d" type="%s" value="%d"/>' % (order, action[1], action[2]))
        elif kind == "exchangeCarrots":
            lines.append('      <exchangeCarrots order="%d" value="%d"/>' % (order, action[1]))
        else:
            lines.append('      <%s order="%d"/>' % (kind, order))
    lines += ["    </data>", "  </room>"]
    return "\n".join(lines) + "\n"


def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def main():
    rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)
    send('<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n')
    parser = ET.XMLPullParser(events=("start", "end"))
    root = None
    depth = 0
    room_id = None
    latest = None
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        parser.feed(chunk)
        for event, element in parser.read_events():
            if event == "start":
                depth += 1
                if depth == 1:
                    root = element
                elif depth == 2 and element.tag == "room":
                    room_id = element.get("roomId")
                elif depth == 3 and element.tag == "data" and element.get("class") == MOVE_REQUEST:
                    board, players, current = latest
                    other = "BLUE" if current == "RED" else "RED"
                    moves = legal_moves(board, players[current], players[other])
                    send(render_move(room_id, rng.choice(moves)))
                continue
            depth -= 1
            if depth != 1:
                continue
            # A whole message (a child of <protocol>) has arrived.
            if element.tag == "room":
                data = element.find("data")
                if data is not None and data.get("class") == "memento":
                    latest = read_state(data.find("state"))
                elif data is not None and data.get("class") == "result":
                    scores = [[p.text for p in s.findall("part")] for s in data.findall("score")]
                    sys.stderr.write("result: %s\n" % scores)
            elif element.tag == "left":
                send("  <sc.protocol.responses.CloseConnection/>\n</protocol>\n")
                return
            root.remove(element)


if __name__ == "__main__":
    main()
