"""Chuhan driven by a third-party client: the `cchess` package from PyPI (its
`UcciEngine` and `UciEngine` classes, which send CRLF lines and parse the replies
with their own code). Every move the daemon answers must be legal by cchess's own
board. Run by `make interop` (which `.ci/run` runs) in a virtual environment with
tests/interop/requirements.txt; CHUHAN_BIN names the binary (default: the test
build, target/ci/chuhan)."""

import os
import time
import unittest
from pathlib import Path

import cchess

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("CHUHAN_BIN", ROOT / "target" / "ci" / "chuhan")).resolve()

# A hang guard only (seconds), never a speed requirement.
HANG_GUARD = 120

POSITIONS = [
    # The start position, then an opening, a middlegame and an endgame.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 b - - 9 5",
    "2bak4/4a4/4b4/8p/5R3/8P/n8/1r2C4/9/1cBAKAB2 w - - 0 1",
    "3k5/9/9/9/r8/9/4P4/9/9/5K3 w - - 0 1",
]


def legal(fen, iccs):
    """True if `iccs` is a legal move of `fen` by cchess's board."""
    board = cchess.ChessBoard(fen)
    frm, to = cchess.iccs2pos(iccs)
    return board.is_valid_move(frm, to) and not board.is_checked_move(frm, to)


class Driver:
    """One daemon driven through a cchess engine class."""

    def __init__(self, engine_class, options):
        self.engine = engine_class()
        if not self.engine.load(str(BINARY)):
            raise RuntimeError(f"cchess could not start {BINARY}")
        if not self.engine.wait_for_ready(timeout=HANG_GUARD):
            raise RuntimeError("no handshake answer")
        for name, value in options.items():
            self.engine.set_option(name, value)

    def best(self, fen, params):
        """The engine's move for `fen` (None when it has none), and the info seen."""
        self.engine.go_from(fen, params)
        infos = []
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            action = self.engine.get_action()
            if action is None:
                time.sleep(0.01)
                continue
            if "error" in action.get("raw_msg", ""):
                raise AssertionError(f"the daemon complained: {action['raw_msg']}")
            if action["action"] == "info_move":
                infos.append(action)
            elif action["action"] == "bestmove":
                return action["move"], infos
            elif action["action"] == "dead":
                return None, infos
        raise AssertionError(f"no bestmove for {fen} within the hang guard")

    def close(self):
        """`quit`, then waits for the daemon to exit and closes the pipes."""
        self.engine.running = False
        self.engine.quit()
        self.engine.process.wait(timeout=HANG_GUARD)
        self.engine.join(timeout=HANG_GUARD)
        self.engine.pin.close()
        self.engine.pout.close()


class CchessDrivesChuhan(unittest.TestCase):
    def check_positions(self, engine_class, options):
        d = Driver(engine_class, options)
        try:
            for fen in POSITIONS:
                move, infos = d.best(fen, {"depth": 4})
                self.assertIsNotNone(move, fen)
                self.assertTrue(legal(fen, move), f"{move} is illegal in {fen}")
                self.assertTrue(any("moves" in i for i in infos), f"no pv for {fen}")
        finally:
            d.close()
        self.assertEqual(d.engine.process.returncode, 0)

    def test_ucci_positions(self):
        self.check_positions(cchess.UcciEngine, {"usebook": "false"})

    def test_uci_positions(self):
        self.check_positions(cchess.UciEngine, {"OwnBook": "false"})

    def play(self, engine_class, options, plies):
        """A short game of the engine against itself, every move checked by cchess
        and played on cchess's board; the book answers the first moves."""
        d = Driver(engine_class, options)
        board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
        played = []
        try:
            for _ in range(plies):
                fen = board.to_full_fen()
                move, _ = d.best(fen, {"depth": 3})
                if move is None:
                    break
                self.assertTrue(legal(fen, move), f"{move} is illegal in {fen} after {played}")
                self.assertIsNotNone(board.move_iccs(move))
                board.next_turn()
                played.append(move)
        finally:
            d.close()
        self.assertGreaterEqual(len(played), plies // 2, played)

    def test_ucci_short_game(self):
        self.play(cchess.UcciEngine, {}, 16)

    def test_uci_short_game(self):
        self.play(cchess.UciEngine, {"Hash": "16"}, 16)


if __name__ == "__main__":
    unittest.main()
