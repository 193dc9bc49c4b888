#!/usr/bin/env python3
"""Runs the work units of a Chuhan plan on a Ray cluster.

A plan comes from the binary (`chuhan match ... --plan plan.json`, `chuhan datagen
... --plan plan.json`, `chuhan book generate ... --plan plan.json`, `chuhan
tournament event.json --plan plan.json`); each unit is played by `chuhan
match|datagen|book generate|tournament --unit plan.json K --out DIR` as one Ray
task, anywhere in the cluster. The driver keeps every finished unit's file in its
results directory (written atomically, one name per unit, so a unit played twice
counts once), shows live progress, stops a match once its SPRT decides, resumes
from the results directory after a restart, and ends by printing what `chuhan match
--merge` (or `chuhan datagen --stats`) prints.

Book generation, tournaments and SPSA runs go in rounds (a ply of the book, the
games an event has due, a batch of SPSA game pairs): the driver merges (`chuhan
book generate --merge RESULTS --out BOOK`, `chuhan tournament --merge RESULTS`,
`chuhan spsa --merge RESULTS`), which either finishes (the book, the
final standings) or writes the plan of the next round to RESULTS/next.json (exit
status 3); it plays that plan's units and merges again.

    python chuhan_ray.py --address HEAD:6379 --chuhan target/release/chuhan \
        --plan plan.json --results results/

The chuhan binary (and any file given with --ship) is put into Ray's object store
once and unpacked on each node into a cache directory named after its hash; tasks
run in that directory, so engine commands in the plan may name shipped files as
`./chuhan` or `./chuhan-old`. Absolute paths in the plan must exist on every node
(a shared file system). See the README, "Matches and self-play on a Ray cluster".
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MATCH_PLAN = "chuhan-match-plan"
DATAGEN_PLAN = "chuhan-datagen-plan"
BOOK_PLAN = "chuhan-book-plan"
TOURNAMENT_PLAN = "chuhan-tournament-plan"
SPSA_PLAN = "chuhan-spsa-plan"
# The subcommand that plays a unit of each kind of plan.
COMMANDS = {MATCH_PLAN: ["match"], DATAGEN_PLAN: ["datagen"],
            BOOK_PLAN: ["book", "generate"], TOURNAMENT_PLAN: ["tournament"],
            SPSA_PLAN: ["spsa"]}
# Plans that go on in rounds: a merge either finishes or writes the next plan.
ROUND_KINDS = (BOOK_PLAN, TOURNAMENT_PLAN, SPSA_PLAN)
NEXT_PLAN = "next.json"
MORE_TO_PLAY = 3  # exit status of such a merge that wrote NEXT_PLAN
# The progress merge runs at most every 2 s, and at most a tenth of the time (it
# re-reads every unit file: 0.2 s for 1,000 games here).
MERGE_EVERY_SECONDS = 2.0
MERGE_SHARE = 0.1


def unit_file(kind, plan, k):
    """The file name unit `k` of a plan of `kind` writes: each kind's
    `UnitPlan::unit_file_name` (crates/arena/src/work_unit.rs lists them)."""
    if kind == MATCH_PLAN:
        return f"unit-{k}.json"
    if kind == DATAGEN_PLAN:
        return f"unit-{k}.bin"
    if kind == BOOK_PLAN:
        return f"ply-{plan['ply']}-unit-{k}.json"
    return f"unit-{plan['plan_id']}-{k}.json"  # tournament, spsa


def write_atomic(path, data):
    """Writes `data` (bytes) to `path` through a temporary file and a rename."""
    tmp = os.path.join(
        os.path.dirname(path) or ".", f".{os.path.basename(path)}.tmp-{os.getpid()}"
    )
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def unit_is_done(kind, plan, k, path):
    """Whether `path` holds finished unit `k` of `plan` (the binary checks it fully
    when merging)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return False
    if kind == DATAGEN_PLAN:
        # A data unit: magic, then the run id at bytes 16..24 (docs/datagen-format.md).
        return (
            len(data) >= 64
            and data[:8] == b"CHUHANDG"
            and int.from_bytes(data[16:24], "little") == int(plan["run_id"], 16)
        )
    try:
        unit = json.loads(data)
    except ValueError:
        return False
    # The envelope every JSON unit file has (crates/arena/src/work_unit.rs):
    # format, version, plan_id, unit; a book unit's plan_id is the run id.
    if kind == BOOK_PLAN:
        return (unit.get("plan_id"), unit.get("ply"), unit.get("unit")) == (
            plan["run_id"], plan["ply"], k)
    return (unit.get("plan_id"), unit.get("unit")) == (plan["plan_id"], k)


# What a unit's size counts, and what its work counts (for the rates).
SIZE_WORD = {MATCH_PLAN: "games", DATAGEN_PLAN: "games", BOOK_PLAN: "positions",
             TOURNAMENT_PLAN: "games", SPSA_PLAN: "games"}
WORK_WORD = {MATCH_PLAN: "positions", DATAGEN_PLAN: "positions", BOOK_PLAN: "nodes",
             TOURNAMENT_PLAN: "positions", SPSA_PLAN: "positions"}


def unit_size(kind, plan, k):
    """Games (match, datagen, tournament) or positions (book) in unit `k`."""
    unit = plan["units"][k]
    if kind == BOOK_PLAN:
        return unit["positions"]
    return len(unit["games"]) if isinstance(unit["games"], list) else unit["games"]


def unit_work(kind, data):
    """The work in a finished unit: plies played (match, tournament), records kept
    (datagen), nodes searched (book)."""
    if kind == DATAGEN_PLAN:
        return int.from_bytes(data[40:48], "little")
    unit = json.loads(data)
    if kind == BOOK_PLAN:
        return sum(p["nodes"] for p in unit["positions"])
    return sum(len(g["moves"]) for g in unit["games"])


def hms(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Shipment:
    """Files every node needs (the chuhan binary first), in the object store."""

    def __init__(self, ray, paths):
        self.names = []
        self.refs = []
        digest = hashlib.sha256()
        for p in paths:
            with open(p, "rb") as f:
                data = f.read()
            digest.update(os.path.basename(p).encode() + b"\0" + data)
            self.names.append(os.path.basename(p))
            self.refs.append(ray.put(data))
        self.key = digest.hexdigest()[:16]


def unpack(key, names, blobs):
    """On a node: the cache directory holding the shipped files (made once)."""
    root = os.path.join(tempfile.gettempdir(), "chuhan-ray", key)
    if not os.path.isdir(root):
        os.makedirs(os.path.dirname(root), exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{key}-", dir=os.path.dirname(root))
        for name, data in zip(names, blobs):
            path = os.path.join(staging, name)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, 0o755)
        try:
            os.rename(staging, root)
        except OSError:  # another task on this node unpacked it first
            shutil.rmtree(staging, ignore_errors=True)
    return root


def die_with_parent():
    """In the child: SIGKILL when the Ray worker that started it dies (a cancelled
    task, a removed node), so no chuhan process outlives its task."""
    import ctypes

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def play_unit(kind, plan_text, k, file_name, key, names, *blobs):
    """A Ray task: plays unit `k` in a scratch directory on this node and returns
    (k, the unit file's bytes, seconds, node id)."""
    import ray

    started = time.time()
    home = unpack(key, names, blobs)
    with tempfile.TemporaryDirectory(prefix=f"unit-{k}-") as scratch:
        plan_path = os.path.join(scratch, "plan.json")
        with open(plan_path, "w") as f:
            f.write(plan_text)
        out = os.path.join(scratch, "out")
        argv = ([os.path.join(home, names[0])] + COMMANDS[kind]
                + ["--unit", plan_path, str(k), "--out", out])
        if kind in (MATCH_PLAN, DATAGEN_PLAN, SPSA_PLAN):
            argv += ["--concurrency", "1"]
        done = subprocess.run(argv, cwd=home, capture_output=True, text=True,
                              preexec_fn=die_with_parent)
        if done.returncode != 0:
            raise RuntimeError(f"unit {k}: exit {done.returncode}: {done.stderr.strip()}")
        with open(os.path.join(out, file_name), "rb") as f:
            data = f.read()
    return k, data, time.time() - started, ray.get_runtime_context().get_node_id()


def merge_summary(chuhan, results, pgn=None):
    """`chuhan match --merge` of the results: (exit code, stdout, stderr)."""
    argv = [chuhan, "match", "--merge", results]
    if pgn:
        argv += ["--pgn", pgn]
    done = subprocess.run(argv, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def progress_fields(summary):
    """Score, Elo and LLR from a merge's summary lines, for the progress line."""
    fields = {}
    for line in summary.splitlines():
        if line.startswith("Score of ") and "score" not in fields:
            fields["score"] = line[len("Score of "):]
        elif line.startswith("Elo difference: ") and "elo" not in fields:
            fields["elo"] = line[len("Elo difference: "):].split(",")[0]
        elif line.startswith("SPRT: llr "):
            fields["llr"] = line.split()[2]
            fields["decided"] = "was accepted" in line
    return fields


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default="auto",
                   help="the Ray cluster (HEAD:PORT, ray://HEAD:10001, auto) or 'local' "
                        "for a one-machine Ray started by the driver")
    p.add_argument("--chuhan", required=True,
                   help="the chuhan binary; shipped to every node and used to merge")
    p.add_argument("--ship", action="append", default=[], metavar="FILE",
                   help="another file every node needs (an engine); tasks run in the "
                        "directory holding the shipped files")
    p.add_argument("--plan", help="the plan (chuhan match|datagen|book generate|tournament "
                                  "... --plan FILE); optional when RESULTS already holds "
                                  "plan.json")
    p.add_argument("--results", required=True, help="the results directory")
    p.add_argument("--retries", type=int, default=3,
                   help="times a unit is tried again after a lost node or a failure")
    p.add_argument("--cpus-per-unit", type=float, default=1.0,
                   help="Ray CPUs one unit takes (a match unit runs two engines, "
                        "one at a time thinking)")
    p.add_argument("--max-in-flight", type=int, default=0,
                   help="units submitted at once (0: twice the cluster's CPUs)")
    p.add_argument("--no-sprt-stop", action="store_true",
                   help="play every unit even when the SPRT has decided")
    p.add_argument("--pgn", help="match: also write the games to this PGN file")
    p.add_argument("--book", help="book plans: the book to write")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--verbose", action="store_true",
                   help="a line per finished unit: its node and time")
    return p.parse_args(argv)


def load_plan(args):
    """The plan: --plan, checked against (or copied into) RESULTS/plan.json."""
    os.makedirs(args.results, exist_ok=True)
    kept = os.path.join(args.results, "plan.json")
    if args.plan:
        with open(args.plan, "rb") as f:
            text = f.read()
        plan = json.loads(text)
        if os.path.exists(kept):
            with open(kept, "rb") as f:
                old = json.loads(f.read())
            if plan_key(old) != plan_key(plan):
                sys.exit(f"error: {args.results} holds another plan ({plan_key(old)}); "
                         "use another directory")
        else:
            write_atomic(kept, text)
    else:
        try:
            with open(kept, "rb") as f:
                text = f.read()
        except FileNotFoundError:
            sys.exit(f"error: give --plan (no plan.json in {args.results})")
        plan = json.loads(text)
    if plan.get("format") not in COMMANDS:
        sys.exit(f"error: not a match, datagen, book, tournament or spsa plan: format "
                 f"{plan.get('format')!r}")
    return plan, text.decode()


def plan_key(plan):
    """What one run's plans share: the event (tournament), the plan (match), the
    run (datagen, book)."""
    return plan.get("event_id") or plan.get("plan_id") or plan.get("run_id")


class Driver:
    """Runs units on the cluster: the shipment, the task, the progress lines."""

    def __init__(self, args, ray, chuhan):
        self.args = args
        self.ray = ray
        self.chuhan = chuhan
        self.say = ((lambda *a: None) if args.quiet
                    else (lambda *a: print(*a, file=sys.stderr, flush=True)))
        self.shipment = Shipment(ray, [chuhan] + args.ship)
        self.task = ray.remote(play_unit).options(
            num_cpus=args.cpus_per_unit, max_retries=args.retries, retry_exceptions=True)
        self.limit = args.max_in_flight or max(
            2, int(2 * ray.cluster_resources().get("CPU", 1)))

    def cluster(self):
        """`2 CPUs on 2 nodes`."""
        return (f"{int(self.ray.cluster_resources().get('CPU', 0))} CPUs on "
                f"{len([n for n in self.ray.nodes() if n['Alive']])} nodes")

    def run_units(self, kind, plan, plan_text, heading):
        """Plays the units of `plan` not yet in the results directory, writing each
        there as it arrives. `heading(units, size, done)`, if given, makes the first
        progress line.
        Returns None, or why the plan could not be played."""
        ray, args, say = self.ray, self.args, self.say
        units = len(plan["units"])
        files = [unit_file(kind, plan, k) for k in range(units)]
        total = sum(unit_size(kind, plan, k) for k in range(units))
        done = {k for k in range(units)
                if unit_is_done(kind, plan, k, os.path.join(args.results, files[k]))}
        before = sum(unit_size(kind, plan, k) for k in done)
        if heading:
            say(heading(units, total, len(done)))
        plan_ref = ray.put(plan_text)
        todo = [k for k in range(units) if k not in done]
        todo.reverse()
        running = {}
        started = time.time()
        size_now = work_now = 0
        next_merge = 0.0
        fields = {}
        stopped = False
        size_word, work_word = SIZE_WORD[kind], WORK_WORD[kind]

        def submit():
            while todo and len(running) < self.limit and not stopped:
                k = todo.pop()
                ref = self.task.remote(kind, plan_ref, k, files[k], self.shipment.key,
                                       self.shipment.names, *self.shipment.refs)
                running[ref] = k

        submit()
        failure = None
        while running:
            ready, _ = ray.wait(list(running), num_returns=1, timeout=5.0)
            if not ready:
                continue
            ref = ready[0]
            k = running.pop(ref)
            try:
                _, data, seconds, node = ray.get(ref)
            except Exception as e:  # retries exhausted
                failure = f"unit {k} failed: {e}"
                break
            write_atomic(os.path.join(args.results, files[k]), data)
            done.add(k)
            if args.verbose:
                say(f"ray: unit {k} done on node {node[:12]} in {seconds:.2f} s")
            size_now += unit_size(kind, plan, k)
            work_now += unit_work(kind, data)
            elapsed = max(time.time() - started, 1e-3)
            rate = size_now / elapsed
            left = total - before - size_now
            if kind == MATCH_PLAN and (time.time() >= next_merge or not running):
                merge_started = time.time()
                code, out, _ = merge_summary(self.chuhan, args.results)
                took = time.time() - merge_started
                next_merge = time.time() + max(MERGE_EVERY_SECONDS, took / MERGE_SHARE)
                if code in (0, 1, 3):
                    fields = progress_fields(out)
                    if fields.get("decided") and not args.no_sprt_stop and not stopped:
                        stopped = True
                        for r in running:
                            ray.cancel(r, force=True)
                        say(f"ray: the SPRT has decided; cancelled {len(running)} running "
                            f"and {len(todo)} waiting units")
                        running.clear()
                        todo.clear()
            line = (f"ray: units {len(done)}/{units} | {size_word} {before + size_now}/"
                    f"{total} | {rate:.2f} {size_word}/s, {work_now / elapsed:.0f} "
                    f"{work_word}/s | ETA {hms(left / rate) if rate > 0 else '?'}")
            if fields:
                line += (f" | {fields.get('score', '')} | Elo {fields.get('elo', '-')}"
                         + (f" | LLR {fields['llr']}" if "llr" in fields else ""))
            say(line)
            submit()
        if failure:
            for r in running:
                ray.cancel(r, force=True)
        return failure

    def merge_round(self, kind):
        """The merge of a book or tournament: (exit code, stdout, stderr)."""
        argv = [self.chuhan] + COMMANDS[kind] + ["--merge", self.args.results]
        if kind == BOOK_PLAN:
            argv += ["--out", self.args.book]
        # A tournament's merge appends to its results file: it must not outlive a
        # killed driver and overlap the merge of the restarted one.
        done = subprocess.run(argv, capture_output=True, text=True,
                              preexec_fn=die_with_parent)
        return done.returncode, done.stdout, done.stderr

    def run_rounds(self, kind, summary_out):
        """A book or tournament: merge, play the next plan's units, until the merge
        finishes. The merges' output (a tournament's games and reports, the book's
        line) goes to standard output, their notes on the next plan to standard
        error. Returns the exit status."""
        started = time.time()
        while True:
            code, out, err = self.merge_round(kind)
            lines = out.splitlines(keepends=True)
            if code == MORE_TO_PLAY and lines:
                note = lines.pop()
                self.say(f"ray: {note.strip()} ({hms(time.time() - started)} elapsed)")
            summary_out.write("".join(lines))
            summary_out.flush()
            if code != MORE_TO_PLAY:
                sys.stderr.write(err)
                return code
            with open(os.path.join(self.args.results, NEXT_PLAN), "rb") as f:
                text = f.read()
            plan = json.loads(text)
            # The merge's note above says which round and what is done.
            failure = self.run_units(kind, plan, text.decode(), None)
            if failure:
                print(f"error: {failure}", file=sys.stderr)
                return 1


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    chuhan = os.path.abspath(args.chuhan)
    plan, plan_text = load_plan(args)
    kind = plan["format"]
    if kind == BOOK_PLAN and not args.book:
        sys.exit("error: a book plan needs --book FILE (the book to write)")
    if args.book:
        args.book = os.path.abspath(args.book)
    # Standard output is the summary alone: what Ray prints (task logs, retries)
    # goes to standard error.
    summary_out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    import ray

    if args.address == "local":
        ray.init(include_dashboard=False, logging_level="warning")
    else:
        ray.init(address=args.address, logging_level="warning")
    driver = Driver(args, ray, chuhan)
    if kind in ROUND_KINDS:
        what = {BOOK_PLAN: "book run", SPSA_PLAN: "SPSA run"}.get(kind, "event")
        driver.say(f"ray: {what} {plan_key(plan)}; {driver.cluster()}")
        return driver.run_rounds(kind, summary_out)

    def heading(units, size, done):
        return (f"ray: plan {plan_key(plan)}, {units} units, {size} games; "
                f"{done} units already in {args.results}; {driver.cluster()}")

    failure = driver.run_units(kind, plan, plan_text, heading)
    if failure:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    if kind == MATCH_PLAN:
        code, out, err = merge_summary(chuhan, args.results, args.pgn)
    else:
        done_run = subprocess.run([chuhan, "datagen", "--stats", args.results],
                                  capture_output=True, text=True)
        code, out, err = done_run.returncode, done_run.stdout, done_run.stderr
    summary_out.write(out)
    summary_out.flush()
    sys.stderr.write(err)
    return code


if __name__ == "__main__":
    sys.exit(main())
