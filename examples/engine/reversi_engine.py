#!/usr/bin/env python3
"""A small Reversi engine speaking the engine protocol of reversi-record
(spec/engine-protocol.md), written from spec/rules.md alone, with the standard library only.

It plays every variant of spec/rules.md: Othello and anti-reversi on 4x4, 6x6, 8x8, 10x10
and the octagon, the free opening, blocked squares, corner handicaps, both scorings,
classic reversi (32 discs each) and 3-4 players; it reads rules strings (section 10). So

    reversi scenario --engine 'python3 examples/engine/reversi_engine.py'

plays the whole conformance suite. `--only-othello` makes it declare two-player games with
the standard opening and unlimited discs only (the runner skips the rest and says so).

For the tests of the runner, environment variables make it misbehave:
REVERSI_EXAMPLE_BUG=one-direction (only the first closed direction flips) or
draw-empties-to-black (a drawn game's empty squares all go to Black);
REVERSI_EXAMPLE_HANG_AFTER=N (stop answering after N commands);
REVERSI_EXAMPLE_EXIT_AFTER=N (exit after N commands).
"""

import os
import sys
import time

COLOURS = ["black", "white", "red", "green"]
SYMBOLS = "XORG"
SIDES = {"4x4": 4, "6x6": 6, "8x8": 8, "10x10": 10, "octagon": 10}
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
NEUTRAL = "N"
BUG = os.environ.get("REVERSI_EXAMPLE_BUG", "")


def square_name(sq):
    return "abcdefghijklmnopqrstuvwxyz"[sq[0]] + str(sq[1] + 1)


def read_square(name):
    """(col, row) of a name such as f5 or k1; None if it is not a square name at all."""
    name = name.strip().lower()
    if len(name) < 2 or not ("a" <= name[0] <= "z") or not name[1:].isdigit():
        return None
    if name[1] == "0" or len(name) > 3:
        return None
    return (ord(name[0]) - ord("a"), int(name[1:]) - 1)


def reading_order(sq):
    return (sq[1], sq[0])


def names(squares):
    return [square_name(s) for s in sorted(squares, key=reading_order)]


class Rules:
    """What the rules say, from the `rules` command's fields or a parsed rules string."""

    def __init__(self, board, players, fewest, free, supply, raw, blocked, handicap):
        self.board = board
        self.side = SIDES[board]
        self.players = players
        self.fewest = fewest
        self.free = free
        self.supply = supply  # discs per player, or None
        self.raw = raw
        self.blocked = set(blocked)
        self.handicap = handicap  # (colour index, [squares]) or None

    @staticmethod
    def from_fields(fields):
        blocked = []
        if fields["blocked"] != "-":
            blocked = [read_square(s) for s in fields["blocked"].split("+")]
        handicap = None
        if fields["handicap"] != "-":
            colour, squares = fields["handicap"].split(":")
            handicap = (COLOURS.index(colour), [read_square(s) for s in squares.split("+")])
        return Rules(
            fields["board"],
            int(fields["players"]),
            fields["goal"] == "fewest",
            fields["opening"] == "free",
            None if fields["discs"] == "unlimited" else int(fields["discs"]),
            fields["scoring"] == "raw",
            blocked,
            handicap,
        )

    def on_board(self, sq):
        col, row = sq
        n = self.side
        if not (0 <= col < n and 0 <= row < n):
            return False
        if self.board == "octagon":
            # Three squares cut at each corner: the corner and its two neighbours on the edges.
            near_col = min(col, n - 1 - col)
            near_row = min(row, n - 1 - row)
            if near_col + near_row <= 1 and (near_col == 0 or near_row == 0):
                return False
        return True

    def playable(self, sq):
        return self.on_board(sq) and sq not in self.blocked

    def squares(self):
        n = self.side
        return [(c, r) for r in range(n) for c in range(n) if self.playable((c, r))]

    def centre(self):
        """The four centre squares: top-left, top-right, bottom-right, bottom-left."""
        lo, hi = self.side // 2 - 1, self.side // 2
        return [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]

    def corners(self):
        """The corners in the handicap's order: a1, the opposite one, top-right, bottom-left."""
        n = self.side - 1
        return [(0, 0), (n, n), (n, 0), (0, n)]

    def canonical(self):
        if self.players > 2:
            preset = "multi%d" % self.players
        elif self.supply is not None:
            preset = "classic"
        elif self.fewest:
            preset = "anti"
        elif self.free:
            preset = "free"
        else:
            preset = "othello"
        text = preset if self.board == "8x8" else preset + ":" + self.board
        options = []
        if self.fewest and preset != "anti":
            options.append("anti")
        if self.free and preset not in ("free", "classic"):
            options.append("free")
        if self.blocked:
            options.append("blocked=" + "+".join(names(self.blocked)))
        if self.handicap:
            colour, squares = self.handicap
            options.append("handicap=%s:%s" % (COLOURS[colour], "+".join(names(squares))))
        if self.raw and self.players == 2:
            options.append("scoring=raw")
        return ",".join([text] + options)


def parse_rules(text):
    """The rules a rules string names (spec/rules.md section 10), or None when refused."""
    parts = [p.strip().lower() for p in text.split(",")]
    head = [h.strip() for h in parts[0].split(":")]
    if len(head) > 2 or head[0] not in ("othello", "anti", "free", "classic", "multi3", "multi4"):
        return None
    board = head[1] if len(head) == 2 else "8x8"
    if board not in SIDES:
        return None
    preset = head[0]
    players = {"multi3": 3, "multi4": 4}.get(preset, 2)
    fewest = preset == "anti"
    free = preset in ("free", "classic")
    supply = 32 if preset == "classic" else None
    raw = players > 2
    seen = set()
    blocked, handicap_text = [], None
    for part in parts[1:]:
        name, _, value = (p.strip() for p in part.partition("="))
        if name in seen:
            return None
        seen.add(name)
        if name in ("anti", "free") and part.strip() == name:
            fewest = fewest or name == "anti"
            free = free or name == "free"
        elif name == "scoring" and value in ("wof", "raw"):
            if players > 2 and value == "wof":
                return None
            raw = value == "raw"
        elif name == "blocked" and value:
            blocked = [read_square(s) for s in value.split("+")]
            if None in blocked:
                return None
        elif name == "handicap" and value:
            handicap_text = value
        else:
            return None
    rules = Rules(board, players, fewest, free, supply, raw, set(blocked), None)
    if players > 2 and (board in ("4x4", "6x6") or free or handicap_text):
        return None
    if supply is not None and board != "8x8":
        return None
    if handicap_text:
        colour, _, squares = handicap_text.partition(":")
        colour = {"b": "black", "w": "white"}.get(colour.strip(), colour.strip())
        if colour not in ("black", "white") or board == "octagon":
            return None
        squares = squares.strip()
        if squares.isdigit():
            k = int(squares)
            if not 1 <= k <= 4:
                return None
            corners = rules.corners()[:k]
        else:
            corners = [read_square(s) for s in squares.split("+")]
            if any(c not in rules.corners() for c in corners):
                return None
        rules.handicap = (COLOURS.index(colour), sorted(set(corners), key=reading_order))
    for sq in rules.blocked:
        if sq is None or not rules.on_board(sq):
            return None
        if sq in rules.centre() or (rules.handicap and sq in rules.handicap[1]):
            return None
    return rules


class Game:
    def __init__(self, rules, discs, turn, hands):
        self.rules = rules
        self.discs = dict(discs)  # (col, row) -> colour index, or NEUTRAL
        self.turn = turn
        self.hands = hands  # [black, white] discs in hand, or None

    def in_opening(self):
        return self.rules.free and any(sq not in self.discs for sq in self.rules.centre())

    def out_of_discs(self, player):
        return self.hands is not None and self.hands[player] == 0

    def run(self, sq, step, player):
        """The closed run from sq in direction step, or []."""
        run = []
        col, row = sq[0] + step[0], sq[1] + step[1]
        while self.rules.playable((col, row)) and (col, row) in self.discs:
            if self.discs[(col, row)] == player:
                return run
            run.append((col, row))
            col, row = col + step[0], row + step[1]
        return []

    def flips(self, sq, player):
        if self.in_opening():
            return []
        flipped = []
        for step in DIRECTIONS:
            run = self.run(sq, step, player)
            flipped.extend(run)
            if run and BUG == "one-direction":
                break
        return flipped

    def touches(self, sq):
        return any((sq[0] + dc, sq[1] + dr) in self.discs for dc, dr in DIRECTIONS)

    def empty(self):
        return [sq for sq in self.rules.squares() if sq not in self.discs]

    def flipping(self, player):
        return {sq: f for sq in self.empty() for f in [self.flips(sq, player)] if f}

    def legal(self, player):
        """Legal placements of player, each with its flips."""
        if self.out_of_discs(player):
            return {}
        if self.in_opening():
            return {sq: [] for sq in self.rules.centre() if sq not in self.discs}
        moves = self.flipping(player)
        if not moves and self.rules.players > 2:
            # The fallback: any empty square touching a disc, flipping nothing.
            moves = {sq: [] for sq in self.empty() if self.touches(sq)}
        return moves

    def over(self):
        if self.legal(self.turn):
            return False
        if self.rules.players > 2:
            return True
        return not self.legal(1 - self.turn)

    def next_player(self):
        return (self.turn + 1) % self.rules.players

    def play(self, word):
        """`played FLIPS` or `refused KIND`."""
        over = self.over()
        legal = self.legal(self.turn)
        if word in ("--", "pass"):
            if over:
                return "refused GameOver"
            if self.rules.players > 2 or (self.in_opening() and not self.out_of_discs(self.turn)):
                return "refused PassNotAllowed"
            if legal:
                return "refused PassWithMoves"
            self.turn = self.next_player()
            return "played"
        sq = read_square(word)
        if sq is None:
            return "error `%s` is not a move" % word
        if sq in self.rules.blocked:
            return "refused Blocked"
        if not self.rules.on_board(sq):
            return "refused OffBoard"
        if over:
            return "refused GameOver"
        if sq in self.discs:
            return "refused Occupied"
        if self.out_of_discs(self.turn):
            return "refused NoDiscsLeft"
        if self.in_opening() and sq not in self.rules.centre():
            return "refused OutsideCentre"
        if sq not in legal:
            if self.rules.players > 2:
                return "refused FlipAvailable" if self.flipping(self.turn) else "refused NotTouching"
            return "refused FlipsNothing"
        flipped = legal[sq]
        self.discs[sq] = self.turn
        for f in flipped:
            self.discs[f] = self.turn
        if self.hands is not None:
            self.hands[self.turn] -= 1
        self.turn = self.next_player()
        return " ".join(["played"] + names(flipped))

    def board(self):
        rows = []
        n = self.rules.side
        for row in range(n):
            line = ""
            for col in range(n):
                sq = (col, row)
                if not self.rules.on_board(sq):
                    line += "-"
                elif sq in self.rules.blocked:
                    line += "#"
                elif sq in self.discs:
                    d = self.discs[sq]
                    line += NEUTRAL if d == NEUTRAL else SYMBOLS[d]
                else:
                    line += "."
            rows.append(line)
        return "board " + "/".join(rows)

    def legal_line(self):
        if self.over():
            return "legal"
        moves = self.legal(self.turn)
        if not moves:
            return "legal --"
        items = [square_name(sq) + ":" + ",".join(names(moves[sq])) for sq in moves]
        return "legal " + " ".join(items)

    def outcome(self):
        if not self.over():
            return "outcome none"
        players = self.rules.players
        count = [sum(1 for d in self.discs.values() if d == p) for p in range(players)]
        neutral = sum(1 for d in self.discs.values() if d == NEUTRAL)
        empty = len(self.empty())
        best = min(count) if self.rules.fewest else max(count)
        leaders = [p for p in range(players) if count[p] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        score = list(count)
        if not self.rules.raw:
            if count[0] == count[1]:
                if BUG == "draw-empties-to-black":
                    score[0] += empty
                else:
                    score[0] += empty // 2
                    score[1] += empty // 2
            else:
                # The empty squares go to the side with more discs: the winner, or in anti
                # the loser.
                score[0 if count[0] > count[1] else 1] += empty
        return "outcome winner=%s goal=%s scoring=%s empty=%d neutral=%d discs=%s score=%s" % (
            "none" if winner is None else COLOURS[winner],
            "fewest" if self.rules.fewest else "most",
            "raw" if self.rules.raw else "wof",
            empty,
            neutral,
            ",".join(map(str, count)),
            ",".join(map(str, score)),
        )


def start(rules):
    discs = {}
    if not rules.free:
        tl, tr, br, bl = rules.centre()
        if rules.players == 2:
            discs = {tl: 1, br: 1, tr: 0, bl: 0}
        else:
            discs = {tl: 0, tr: 1, br: 2, bl: 3 if rules.players == 4 else NEUTRAL}
    if rules.handicap:
        colour, squares = rules.handicap
        for sq in squares:
            discs[sq] = colour
    hands = None if rules.supply is None else [rules.supply, rules.supply]
    return Game(rules, discs, 0, hands)


def setup(rules, words):
    """`ok` and the game, or `refused KIND` and None (spec/rules.md section 9)."""
    rows, turn = words[0].split("/"), words[1]
    given = [int(words[2]), int(words[3])] if len(words) == 4 else None
    discs = {}
    kinds = set()
    for row, line in enumerate(rows):
        for col, ch in enumerate(line):
            sq = (col, row)
            if ch in ".#-":
                continue
            if not rules.playable(sq):
                kinds.add("NotPlayable")
            if ch == NEUTRAL:
                discs[sq] = NEUTRAL
                if rules.players != 3:
                    kinds.add("NeutralNotAllowed")
            else:
                discs[sq] = SYMBOLS.index(ch)
                if discs[sq] >= rules.players:
                    kinds.add("ColorNotPlaying")
    if COLOURS.index(turn) >= rules.players:
        kinds.add("ColorNotPlaying")
    for kind in ("NotPlayable", "ColorNotPlaying", "NeutralNotAllowed"):
        if kind in kinds:
            return "refused " + kind, None
    hands = None
    if rules.supply is not None:
        handicap = len(rules.handicap[1]) if rules.handicap else 0
        placed = max(len(discs) - handicap, 0)
        if given is not None:
            if max(given) > rules.supply:
                return "refused InHandAboveSupply", None
            if sum(given) + placed > 2 * rules.supply:
                return "refused InHandAboveTotal", None
            hands = given
        else:
            # Placed alternately from Black: Black placed half, rounded up when White is to
            # move (section 9).
            black = (placed + 1) // 2 if turn == "white" else placed // 2
            hands = [rules.supply - black, rules.supply - (placed - black)]
    return "ok", Game(rules, discs, COLOURS.index(turn), hands)


def handshake():
    lines = ["name example engine in Python (examples/engine)"]
    if "--only-othello" in sys.argv:
        lines += [
            "supports players=2",
            "supports opening=standard",
            "supports discs=unlimited",
            "supports parse=no",
        ]
    return "\n".join(lines + ["ready 1"])


def main():
    hang_after = int(os.environ.get("REVERSI_EXAMPLE_HANG_AFTER", "-1"))
    exit_after = int(os.environ.get("REVERSI_EXAMPLE_EXIT_AFTER", "-1"))
    rules = None
    game = None
    seen = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        seen += 1
        if seen == hang_after:
            time.sleep(3600)
        if seen == exit_after:
            sys.exit(3)
        command, args = words[0], words[1:]
        if command == "quit":
            break
        if command == "protocol":
            answer = handshake()
        elif command == "parse":
            parsed = parse_rules(line.strip()[len("parse"):])
            answer = "refused" if parsed is None else "rules " + parsed.canonical()
        elif command == "rules":
            rules = Rules.from_fields(dict(w.split("=", 1) for w in args[1:]))
            game = None
            answer = "ok"
        elif command == "start":
            game = start(rules)
            answer = "ok"
        elif command == "setup":
            answer, game = setup(rules, args)
        elif game is None:
            answer = "error no position"
        elif command == "play":
            answer = game.play(args[0])
        elif command == "board":
            answer = game.board()
        elif command == "turn":
            answer = ("over " if game.over() else "turn ") + COLOURS[game.turn]
        elif command == "phase":
            answer = "phase opening" if game.in_opening() else "phase main"
        elif command == "hands":
            answer = "hands -" if game.hands is None else "hands %d %d" % tuple(game.hands)
        elif command == "legal":
            answer = game.legal_line()
        elif command == "outcome":
            answer = game.outcome()
        else:
            answer = "error unknown command " + command
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
