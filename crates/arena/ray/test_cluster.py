#!/usr/bin/env python3
"""The Ray driver on a real three-node Ray cluster on this machine (`make
cluster-test`): a 40-game match at depth 2 played as 20 units gives exactly the
games and summary of the same local `chuhan match`; a node removed while units run
and a driver killed and restarted change nothing; a data-generation plan runs to
the same files as a local run; a book grown ply by ply from units is the local
`chuhan book generate` book byte for byte; a Swiss tournament at fixed depth played
round by round, its driver killed once, ends with the local event's records and
standings; an SPSA run in rounds ends in the local run's state and tuned values. The
engines are `./chuhan` and `./chuhan-other`, shipped to the nodes by
the driver. CHUHAN_BIN names the binary (target/ci/chuhan)."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DRIVER = os.path.join(HERE, "chuhan_ray.py")
OPENINGS = os.path.join(ROOT, "books", "openings.txt")
GAMES = 40
UNITS = GAMES // 2


def without_times(pgn):
    """A PGN with every move time (`0.84s`) replaced: the one part of a record
    that differs between two runs of the same games."""
    return re.sub(r"\d+\.\d+s", "T", pgn)


def summary_of(stdout):
    """The lines after the last empty line of `chuhan match`'s output."""
    lines = stdout.splitlines()
    blanks = [i for i, line in enumerate(lines) if not line]
    return "\n".join(lines[blanks[-1] + 1:] if blanks else lines)


def rounds(pgn):
    return sorted(int(r) for r in re.findall(r'\[Round "(\d+)"\]', pgn))


class ClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from ray.cluster_utils import Cluster

        cls.work = tempfile.mkdtemp(prefix="chuhan-cluster-test-")
        cls.node_cache = os.path.join(tempfile.gettempdir(), "chuhan-ray")
        cls.cached = set(os.listdir(cls.node_cache)) if os.path.isdir(cls.node_cache) else set()
        # The binary the engines and the driver use, shipped to every node.
        cls.chuhan = os.path.join(cls.work, "chuhan")
        shutil.copy(os.environ.get("CHUHAN_BIN", os.path.join(ROOT, "target/ci/chuhan")),
                    cls.chuhan)
        # A second engine file, shipped to the nodes with --ship.
        cls.other = os.path.join(cls.work, "chuhan-other")
        shutil.copy(cls.chuhan, cls.other)
        engines = ["--engine", "./chuhan name=Large option.usebook=false",
                   "--engine",
                   "./chuhan-other name=Small option.usebook=false option.knowledge=small"]
        cls.match = ["match", "--games", str(GAMES), "--depth", "2", "--seed", "5",
                     "--openings", OPENINGS] + engines
        local = cls.run_chuhan(cls.match + ["--pgn", "local.pgn"])
        cls.local_summary = summary_of(local.stdout)
        with open(os.path.join(cls.work, "local.pgn")) as f:
            cls.local_pgn = f.read()
        cls.run_chuhan(cls.match + ["--plan", "plan.json", "--games-per-unit", "2"])
        cls.cluster = Cluster(initialize_head=True,
                              head_node_args={"num_cpus": 1, "include_dashboard": False})
        cls.workers = [cls.cluster.add_node(num_cpus=1) for _ in range(2)]
        cls.cluster.wait_for_nodes()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()
        shutil.rmtree(cls.work, ignore_errors=True)
        # The nodes' copies of the shipped binary (all nodes share /tmp here).
        for name in set(os.listdir(cls.node_cache)) - cls.cached:
            shutil.rmtree(os.path.join(cls.node_cache, name), ignore_errors=True)

    @classmethod
    def run_chuhan(cls, args):
        done = subprocess.run([cls.chuhan] + args, cwd=cls.work, capture_output=True,
                              text=True, check=True)
        return done

    def driver(self, results, extra=(), plan="plan.json"):
        """The driver's command line for a results directory."""
        return [sys.executable, DRIVER, "--address", self.cluster.address,
                "--chuhan", self.chuhan, "--plan", os.path.join(self.work, plan),
                "--results", os.path.join(self.work, results), "--verbose",
                "--pgn", os.path.join(self.work, results + ".pgn"),
                "--ship", self.other] + list(extra)

    def start(self, results, extra=(), plan="plan.json"):
        return subprocess.Popen(self.driver(results, extra, plan), cwd=self.work, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def finish(self, proc):
        out, err = proc.communicate(timeout=600)
        self.assertEqual(proc.returncode, 0, err)
        return out, err

    def unit_files(self, results, pattern=r"unit-\d+\.json"):
        d = os.path.join(self.work, results)
        if not os.path.isdir(d):
            return {}
        return {n: os.stat(os.path.join(d, n)) for n in os.listdir(d)
                if re.fullmatch(pattern, n)}

    def wait_for_units(self, results, n, proc):
        while len(self.unit_files(results)) < n:
            self.assertIsNone(proc.poll(), "the driver ended too early")
            time.sleep(0.05)

    def assert_same_match(self, results, out):
        self.assertEqual(summary_of(out), self.local_summary)
        self.assertEqual(len(self.unit_files(results)), UNITS)
        with open(os.path.join(self.work, results + ".pgn")) as f:
            pgn = f.read()
        self.assertEqual(rounds(pgn), list(range(1, GAMES + 1)))
        self.assertEqual(without_times(pgn), without_times(self.local_pgn))

    def test_1_three_nodes_play_the_local_match(self):
        out, err = self.finish(self.start("three"))
        self.assert_same_match("three", out)
        self.assertIn(f"Games: {GAMES} of {GAMES}; ", out)
        nodes = set(re.findall(r"done on node (\w+)", err))
        self.assertEqual(len(nodes), 3, err)
        self.assertRegex(err, r"games/s, \d+ positions/s \| ETA ")

    def test_2_a_node_removed_while_units_run(self):
        proc = self.start("fault")
        self.wait_for_units("fault", 2, proc)
        self.cluster.remove_node(self.workers.pop())
        self.assertLess(len(self.unit_files("fault")), UNITS)
        out, err = self.finish(proc)
        self.assert_same_match("fault", out)
        self.workers.append(self.cluster.add_node(num_cpus=1))
        self.cluster.wait_for_nodes()

    def test_3_a_killed_driver_resumes_without_replaying(self):
        proc = self.start("resume")
        self.wait_for_units("resume", 4, proc)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        before = self.unit_files("resume")
        self.assertLess(len(before), UNITS)
        out, err = self.finish(self.start("resume"))
        self.assertIn(f"{len(before)} units already in", err)
        after = self.unit_files("resume")
        for name, st in before.items():
            self.assertEqual((after[name].st_ino, after[name].st_mtime_ns),
                             (st.st_ino, st.st_mtime_ns), name)
        replayed = {f"unit-{k}.json" for k in re.findall(r"ray: unit (\d+) done", err)}
        self.assertFalse(replayed & set(before), err)
        self.assert_same_match("resume", out)

    def test_4_the_sprt_stops_the_match_and_cancels_the_rest(self):
        self.run_chuhan(self.match + ["--sprt", "elo0=0", "elo1=50", "alpha=0.2",
                                      "beta=0.2", "--plan", "sprt.json",
                                      "--games-per-unit", "2"])
        cmd = self.driver("sprt")
        cmd[cmd.index("--plan") + 1] = os.path.join(self.work, "sprt.json")
        done = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r"SPRT: llr .* - H[01] was accepted")
        played = int(re.search(r"Games: (\d+) of 40", done.stdout).group(1))
        self.assertLess(played, GAMES)
        self.assertIn("the SPRT has decided; cancelled", done.stderr)

    def test_5_datagen_units_are_the_local_run(self):
        gen = ["datagen", "--games", "6", "--games-per-unit", "2", "--depth", "2",
               "--random-plies", "4", "--max-plies", "60", "--seed", "3"]
        self.run_chuhan(gen + ["--out", "gen-local", "--concurrency", "1"])
        self.run_chuhan(gen + ["--plan", "gen.json"])
        cmd = self.driver("gen")
        cmd[cmd.index("--plan") + 1] = os.path.join(self.work, "gen.json")
        done = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        for k in range(3):
            with open(os.path.join(self.work, "gen", f"unit-{k}.bin"), "rb") as a, \
                    open(os.path.join(self.work, "gen-local", f"unit-{k}.bin"), "rb") as b:
                self.assertEqual(a.read(), b.read(), k)
        local = self.run_chuhan(["datagen", "--stats", "gen-local"]).stdout
        self.assertEqual(done.stdout.replace("gen", "gen-local"), local)


    def test_6_a_book_grown_on_the_cluster_is_the_local_book(self):
        gen = ["book", "generate", "--plies", "4", "--depth", "3", "--width", "2",
               "--hash", "4"]
        local = self.run_chuhan(gen + ["--out", "book-local.bin"]).stdout
        self.run_chuhan(gen + ["--plan", "book.json", "--positions-per-unit", "2"])
        book = os.path.join(self.work, "book-ray.bin")
        out, err = self.finish(self.start("book", ["--book", book], plan="book.json"))
        with open(book, "rb") as a, open(os.path.join(self.work, "book-local.bin"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        # The local line less its time, naming the other file.
        self.assertEqual(out.strip().replace(book, "book-local.bin"),
                         local.strip().rsplit(", ", 1)[0])
        for ply in range(4):
            self.assertRegex(err, rf"ray: \S+next.json: ply {ply} of 4: ")
        units = self.unit_files("book", r"ply-\d-unit-\d+\.json")
        self.assertGreater(len(units), 4)
        nodes = set(re.findall(r"done on node (\w+)", err))
        self.assertGreater(len(nodes), 1, err)

    def test_7_a_tournament_played_round_by_round_is_the_local_one(self):
        def event(out):
            engine = {"command": "./chuhan", "options": {"usebook": False}}
            return {
                "event": "Cluster cup",
                "engines": [dict(engine, name="Large"),
                            dict(engine, name="Small", command="./chuhan-other",
                                 options={"usebook": False, "knowledge": "small"}),
                            dict(engine, name="Hash8", options={"usebook": False, "hash": 8}),
                            dict(engine, name="Hash4", options={"usebook": False, "hash": 4})],
                "format": {"type": "swiss", "rounds": 3},
                "time_control": "60+1",
                "limit": {"depth": 2},
                "openings": [{"moves": ["h2e2", "h9g7"]}, {"moves": ["c3c4"]}],
                "output": {"results": f"{out}.jsonl", "pgn": f"{out}.pgn"},
            }

        for name in ("cup-local", "cup-ray"):
            with open(os.path.join(self.work, name + ".json"), "w") as f:
                json.dump(event(name), f)
        local = self.run_chuhan(["tournament", "cup-local.json"]).stdout
        made = self.run_chuhan(["tournament", "cup-ray.json", "--plan", "cup.json"]).stdout
        self.assertIn("cup.json: plan ", made)
        # Killed once units are in, then restarted: it merges what it has and goes on.
        proc = self.start("cup", plan="cup.json")
        pattern = r"unit-[0-9a-f]{16}-\d+\.json"
        while len(self.unit_files("cup", pattern)) < 2:
            self.assertIsNone(proc.poll(), "the driver ended too early")
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        first, _ = proc.communicate()
        before = self.unit_files("cup", pattern)
        out, err = self.finish(self.start("cup", plan="cup.json"))
        after = self.unit_files("cup", pattern)
        for name, st in before.items():
            self.assertEqual((after[name].st_ino, after[name].st_mtime_ns),
                             (st.st_ino, st.st_mtime_ns), name)
        self.assertEqual(len(after), 6, err)
        final = out[out.index("Final:"):]
        self.assertEqual(final, local[local.index("Final:"):])
        self.assertIn("Round 3 paired", first + out)
        for ext in ("jsonl", "pgn"):
            with open(os.path.join(self.work, "cup-ray." + ext)) as a, \
                    open(os.path.join(self.work, "cup-local." + ext)) as b:
                self.assertEqual(without_times(a.read()), without_times(b.read()), ext)

    def test_8_an_spsa_run_in_rounds_on_the_cluster_is_the_local_run(self):
        # The hash size stands in for a search parameter (this build has no tunables
        # as options); two rounds of two game pairs each.
        with open(os.path.join(self.work, "spsa-params.txt"), "w") as f:
            f.write("Hash, int, 8, 1, 16, 2\n")
        spsa = ["spsa", "--engine", "./chuhan option.usebook=false",
                "--params", "spsa-params.txt", "--iterations", "4", "--pairs-per-round", "2",
                "--depth", "2", "--openings", OPENINGS, "--seed", "3"]
        self.run_chuhan(spsa + ["--out", "spsa-local"])
        self.run_chuhan(spsa + ["--plan", "spsa.json"])
        out, err = self.finish(self.start("spsa", plan="spsa.json"))
        for name in ("state.json", "tuned.txt"):
            with open(os.path.join(self.work, "spsa", name)) as a, \
                    open(os.path.join(self.work, "spsa-local", name)) as b:
                self.assertEqual(a.read(), b.read(), name)
        units = self.unit_files("spsa", r"unit-[0-9a-f]{16}-\d+\.json")
        self.assertEqual(len(units), 4, err)


if __name__ == "__main__":
    unittest.main()
