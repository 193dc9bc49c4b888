#!/usr/bin/env python3
"""Labels positions with a teacher engine's search score (for `chuhan tune`).

Reads `FEN;result` lines (as written by `chuhan tune --export`), searches every
position with a UCI engine (Fairy-Stockfish by default) for a fixed number of
nodes, and writes `FEN;label` lines, where the label is Red's expected score:

    label = lam * result + (1 - lam) * 1 / (1 + 10^(-cp / scale))

The raw scores go to `OUT.raw` (`FEN;result;cp`) for other mixes.
`cp` is the teacher's score from Red's point of view (mates count as +-2000).
Several workers run in parallel, each with its own engine process.

    python3 scripts/fsf_label.py IN OUT --nodes 5000 --workers 2 \
        --engine "node --no-experimental-fetch .../fairy-stockfish-nnue.wasm/uci.js"
"""
import argparse
import shlex
import subprocess
import sys
import threading


class Engine:
    def __init__(self, cmd, variant):
        self.p = subprocess.Popen(
            shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            lines.append(line)
            if line.startswith(token):
                return lines

    def score(self, fen, nodes):
        """The score in centipawns from the side to move's point of view."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        cp = None
        for line in self.wait("bestmove"):
            t = line.split()
            if "score" in t:
                i = t.index("score")
                kind, v = t[i + 1], int(t[i + 2])
                cp = v if kind == "cp" else (2000 if v > 0 else -2000)
        return cp

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--variant", default="xiangqi")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lam", type=float, default=0.0)
    ap.add_argument("--scale", type=float, default=400.0)
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()

    rows = []
    with open(a.input) as f:
        for line in f:
            line = line.strip()
            if line and ";" in line:
                fen, result = line.rsplit(";", 1)
                # Clocks are left out: a teacher may apply its own move limit.
                fen = " ".join(fen.split()[:2] + ["-", "-", "0", "1"])
                rows.append((fen, float(result)))
    if a.limit:
        rows = rows[: a.limit]
    out = open(a.output, "w")
    raw = open(a.output + ".raw", "w")
    lock = threading.Lock()
    done = [0]

    def work(part):
        eng = Engine(a.engine, a.variant)
        try:
            for fen, result in part:
                cp = eng.score(fen, a.nodes)
                if cp is None:
                    continue
                if fen.split()[1] == "b":
                    cp = -cp
                p = 1 / (1 + 10 ** (-cp / a.scale))
                label = a.lam * result + (1 - a.lam) * p
                with lock:
                    out.write(f"{fen};{label:.4f}\n")
                    raw.write(f"{fen};{result};{cp}\n")
                    done[0] += 1
                    if done[0] % 1000 == 0:
                        out.flush()
                        print(f"{done[0]}/{len(rows)}", file=sys.stderr, flush=True)
        finally:
            eng.close()

    threads = [threading.Thread(target=work, args=(rows[i:: a.workers],))
               for i in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.close()
    raw.close()


if __name__ == "__main__":
    main()
