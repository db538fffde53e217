#!/usr/bin/env python3
"""A small Reversi engine speaking the engine protocol of reversi-record
(spec/engine-protocol.md), written from spec/rules.md alone, with the standard library only.

It plays two-player games with the standard opening and unlimited discs: Othello and
anti-reversi on 4x4, 6x6, 8x8, 10x10 and the octagon, with blocked squares, corner
handicaps and either scoring. It says so in the handshake, so that

    reversi scenario --engine 'python3 examples/engine/reversi_engine.py'

plays every scenario of the conformance suite it supports and skips the others (the free
opening, classic reversi, 3-4 players, rules strings).

For the tests of the runner, environment variables make it misbehave:
REVERSI_EXAMPLE_BUG=one-direction (only the first closed direction flips) or
draw-empties-to-black (a drawn game's empty squares all go to Black);
REVERSI_EXAMPLE_HANG_AFTER=N (stop answering after N commands);
REVERSI_EXAMPLE_EXIT_AFTER=N (exit after N commands).
"""

import os
import sys
import time

COLOURS = ["black", "white"]
SYMBOLS = {"black": "X", "white": "O"}
SIDES = {"4x4": 4, "6x6": 6, "8x8": 8, "10x10": 10, "octagon": 10}
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
BUG = os.environ.get("REVERSI_EXAMPLE_BUG", "")


def square_name(col, row):
    return "abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1)


def read_square(name):
    """(col, row) of a name such as f5 or k1; None if it is not a square name at all."""
    name = name.lower()
    if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        return None
    if name[1] == "0":
        return None
    return (ord(name[0]) - ord("a"), int(name[1:]) - 1)


class Rules:
    """The facts of the `rules` command this engine uses."""

    def __init__(self, fields):
        self.board = fields["board"]
        self.side = SIDES[self.board]
        self.anti = fields["goal"] == "fewest"
        self.raw = fields["scoring"] == "raw"
        self.blocked = set()
        if fields["blocked"] != "-":
            self.blocked = {read_square(s) for s in fields["blocked"].split("+")}
        self.handicap = None
        if fields["handicap"] != "-":
            colour, squares = fields["handicap"].split(":")
            self.handicap = (colour, [read_square(s) for s in squares.split("+")])

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


class Game:
    def __init__(self, rules, discs, turn):
        self.rules = rules
        self.discs = dict(discs)  # (col, row) -> colour
        self.turn = turn
        self.over = False
        self.settle()

    def flips(self, sq, colour):
        """The discs a placement of `colour` on `sq` flips."""
        flipped = []
        for dc, dr in DIRECTIONS:
            run = []
            col, row = sq[0] + dc, sq[1] + dr
            while self.rules.playable((col, row)) and self.discs.get((col, row)) not in (None, colour):
                run.append((col, row))
                col, row = col + dc, row + dr
            if run and self.rules.playable((col, row)) and self.discs.get((col, row)) == colour:
                flipped.extend(run)
                if BUG == "one-direction":
                    break
        return flipped

    def legal(self, colour):
        moves = {}
        n = self.rules.side
        for row in range(n):
            for col in range(n):
                sq = (col, row)
                if self.rules.playable(sq) and sq not in self.discs:
                    f = self.flips(sq, colour)
                    if f:
                        moves[sq] = f
        return moves

    def other(self, colour):
        return COLOURS[1 - COLOURS.index(colour)]

    def settle(self):
        """The game is over when neither side has a legal move."""
        if not self.legal(self.turn) and not self.legal(self.other(self.turn)):
            self.over = True

    def play(self, word):
        """`played FLIPS` or `refused KIND`."""
        if word in ("--", "pass"):
            if self.over:
                return "refused GameOver"
            if self.legal(self.turn):
                return "refused PassWithMoves"
            self.turn = self.other(self.turn)
            return "played"
        sq = read_square(word)
        if sq is None:
            return "error `%s` is not a move" % word
        if sq in self.rules.blocked:
            return "refused Blocked"
        if not self.rules.on_board(sq):
            return "refused OffBoard"
        if self.over:
            return "refused GameOver"
        if sq in self.discs:
            return "refused Occupied"
        flipped = self.flips(sq, self.turn)
        if not flipped:
            return "refused FlipsNothing"
        self.discs[sq] = self.turn
        for f in flipped:
            self.discs[f] = self.turn
        self.turn = self.other(self.turn)
        self.settle()
        names = sorted(flipped, key=lambda s: (s[1], s[0]))
        return "played " + " ".join(square_name(*s) for s in names)

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
                    line += SYMBOLS[self.discs[sq]]
                else:
                    line += "."
            rows.append(line)
        return "board " + "/".join(rows)

    def legal_line(self):
        if self.over:
            return "legal"
        moves = self.legal(self.turn)
        if not moves:
            return "legal --"
        items = []
        for sq in sorted(moves, key=lambda s: (s[1], s[0])):
            items.append(square_name(*sq) + ":" + ",".join(square_name(*f) for f in moves[sq]))
        return "legal " + " ".join(items)

    def outcome(self):
        if not self.over:
            return "outcome none"
        count = {c: sum(1 for d in self.discs.values() if d == c) for c in COLOURS}
        n = self.rules.side
        empty = sum(
            1
            for row in range(n)
            for col in range(n)
            if self.rules.playable((col, row)) and (col, row) not in self.discs
        )
        black, white = count["black"], count["white"]
        if black == white:
            winner = None
        elif (black > white) != self.rules.anti:
            winner = "black"
        else:
            winner = "white"
        score = dict(count)
        if not self.rules.raw:
            if winner is None:
                if BUG == "draw-empties-to-black":
                    score["black"] += empty
                else:
                    score["black"] += empty // 2
                    score["white"] += empty // 2
            else:
                # The empty squares go to the side with more discs: the winner, or in anti
                # the loser.
                more = "black" if black > white else "white"
                score[more] += empty
        return "outcome winner=%s goal=%s scoring=%s empty=%d neutral=0 discs=%d,%d score=%d,%d" % (
            winner or "none",
            "fewest" if self.rules.anti else "most",
            "raw" if self.rules.raw else "wof",
            empty,
            black,
            white,
            score["black"],
            score["white"],
        )


def start(rules):
    n = rules.side
    low, high = n // 2 - 1, n // 2
    discs = {
        (low, low): "white",
        (high, high): "white",
        (high, low): "black",
        (low, high): "black",
    }
    if rules.handicap:
        colour, squares = rules.handicap
        for sq in squares:
            discs[sq] = colour
    return Game(rules, discs, "black")


def setup(rules, words):
    """`ok` and the game, or `refused KIND` and None (spec/rules.md section 9)."""
    if len(words) != 2:
        return "error this engine plays no discs in hand", None
    rows, turn = words[0].split("/"), words[1]
    discs = {}
    kinds = set()
    for row, line in enumerate(rows):
        for col, ch in enumerate(line):
            sq = (col, row)
            if ch in ".#-":
                continue
            if not rules.playable(sq):
                kinds.add("NotPlayable")
            if ch in "RG":
                kinds.add("ColorNotPlaying")
            elif ch == "N":
                kinds.add("NeutralNotAllowed")
            elif ch in "XO":
                discs[sq] = "black" if ch == "X" else "white"
    if turn not in COLOURS:
        kinds.add("ColorNotPlaying")
    for kind in ("NotPlayable", "ColorNotPlaying", "NeutralNotAllowed"):
        if kind in kinds:
            return "refused " + kind, None
    return "ok", Game(rules, discs, turn)


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
            answer = "\n".join(
                [
                    "name example engine in Python (examples/engine)",
                    "supports players=2",
                    "supports opening=standard",
                    "supports discs=unlimited",
                    "supports parse=no",
                    "ready 1",
                ]
            )
        elif command == "rules":
            fields = dict(w.split("=", 1) for w in args[1:])
            rules = Rules(fields)
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
            answer = ("over " if game.over else "turn ") + game.turn
        elif command == "phase":
            answer = "phase main"
        elif command == "hands":
            answer = "hands -"
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
