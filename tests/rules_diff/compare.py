#!/usr/bin/env python3
"""Differential test of Chuhan's AXF repetition rulings against Fairy-Stockfish.

Generates repetition games with `chuhan cycles` (or reads its JSON lines from a
file), asks Fairy-Stockfish (pyffish, variant "xiangqi", AXF chasing rules) for its
ruling on each final position, and compares it with Chuhan's AXF ruling: the side
that must vary (Fairy-Stockfish: the side that loses) or a draw.

Every disagreement found with the fixed seed is adjudicated in known.json: its class
and the rule case (tests/data/rules/cases.json) that carries the argument. With
--check the run fails when the disagreements are not exactly the known ones, so a
change of either side's rulings shows up in CI.

    compare.py --games 300 --seed 1 --check        # what `make rules-diff` runs
    compare.py --games 5000 --seed 2               # a long run: counts only
"""

import argparse
import collections
import json
import os
import subprocess
import sys

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))


def fs_move(m):
    """ICCS (ranks 0-9) to Fairy-Stockfish's coordinates (ranks 1-10)."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def fs_ruling(game):
    """Fairy-Stockfish's ruling: 'red'/'black' (the side that loses, i.e. must
    vary), 'draw', or 'none' when it sees no end of the game."""
    moves = [fs_move(m) for m in game["moves"]]
    end, result = sf.is_optional_game_end("xiangqi", game["fen"], moves)
    if not end:
        return "none"
    if result == 0:
        return "draw"
    to_move = game["to_move"]
    other = "black" if to_move == "red" else "red"
    # The result is for the side to move: positive, it wins (the other side loses).
    return other if result > 0 else to_move


def judge_command(game, rules="axf"):
    return (f"chuhan judge --rules {rules} --fen '{game['fen']}' "
            f"--moves '{' '.join(game['moves'])}'")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chuhan", default=os.environ.get("CHUHAN_BIN", "target/ci/chuhan"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--input", help="JSON lines of `chuhan cycles` instead of running it")
    ap.add_argument("--known", default=os.path.join(HERE, "known.json"))
    ap.add_argument("--check", action="store_true",
                    help="fail unless the disagreements are exactly the known ones")
    ap.add_argument("--show", type=int, default=5,
                    help="judge commands shown per class of disagreement")
    args = ap.parse_args()

    if args.input:
        with open(args.input, encoding="utf-8") as f:
            lines = f.read().splitlines()
    else:
        out = subprocess.run(
            [args.chuhan, "cycles", "--seed", str(args.seed), "--games", str(args.games)],
            check=True, capture_output=True, text=True)
        lines = out.stdout.splitlines()
    games = [json.loads(line) for line in lines if line.strip()]

    with open(args.known, encoding="utf-8") as f:
        known = json.load(f)
    # Ids are "seed-index": the known disagreements of this run.
    run_ids = {g["id"] for g in games}
    known_games = {i: v for i, v in known["games"].items() if i in run_ids}

    periods = collections.Counter(g["period"] for g in games)
    stats = collections.Counter()
    classes = collections.defaultdict(list)
    for g in games:
        ours, theirs = g["axf"]["must_vary"], fs_ruling(g)
        stats["violation" if ours != "draw" else "draw"] += 1
        if g["cxa2011"]["must_vary"] != ours:
            stats["cxa2011 differs from axf"] += 1
        if ours == theirs:
            stats["agree"] += 1
            continue
        stats["disagree"] += 1
        # A class by the shape of the disagreement; known.json names the rule class.
        label = known_games.get(g["id"], {}).get("class") or f"chuhan {ours} / fairy-stockfish {theirs}"
        classes[label].append((g, theirs))

    print(f"games: {len(games)} (seed {args.seed}); periods: "
          + ", ".join(f"{p} plies {n}" for p, n in sorted(periods.items())))
    print(f"chuhan axf: {stats['violation']} violations, {stats['draw']} draws; "
          f"cxa2011 ruling differs from axf in {stats['cxa2011 differs from axf']}")
    print(f"agree with fairy-stockfish: {stats['agree']}; disagree: {stats['disagree']}")
    for label, items in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        note = known.get("classes", {}).get(label, {})
        print(f"  {len(items):5}  {label}" + (f"  [{note.get('case', '')}]" if note else ""))
        for g, theirs in items[:args.show]:
            print(f"         {g['id']}: chuhan {g['axf']['must_vary']} "
                  f"({g['axf']['red']}/{g['axf']['black']}), fairy-stockfish {theirs}: "
                  f"{judge_command(g)}")

    if args.check:
        found = {g["id"] for items in classes.values() for g, _ in items}
        expected = set(known_games)
        new, gone = sorted(found - expected), sorted(expected - found)
        for i in new:
            print(f"NEW disagreement {i}: adjudicate it and add it to {args.known}")
        for i in gone:
            print(f"GONE: {i} no longer disagrees: update {args.known}")
        if new or gone:
            return 1
        print("disagreements: exactly the adjudicated ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
