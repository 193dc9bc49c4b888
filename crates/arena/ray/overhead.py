#!/usr/bin/env python3
"""The Ray driver's own cost, without engines: how many unit tasks per second it
can submit, collect and write (tasks that return a payload of a real unit file's
size at once), and how long `chuhan match --merge` takes over a results directory.

    python overhead.py --address HEAD:6379 --tasks 2000 --payload results/unit-0.json \
        --chuhan target/release/chuhan --merge results/
"""

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chuhan_ray import merge_summary, write_atomic  # noqa: E402


def echo(k, data):
    """A unit task that plays nothing."""
    return k, data


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default="auto")
    p.add_argument("--tasks", type=int, default=1000)
    p.add_argument("--payload", help="a unit file whose size the tasks return")
    p.add_argument("--max-in-flight", type=int, default=64)
    p.add_argument("--chuhan", help="with --merge: the binary")
    p.add_argument("--merge", help="a results directory to time `chuhan match --merge` on")
    args = p.parse_args()
    import ray

    if args.address == "local":
        ray.init(include_dashboard=False, logging_level="warning")
    else:
        ray.init(address=args.address, logging_level="warning")
    data = open(args.payload, "rb").read() if args.payload else b"x" * 10_000
    task = ray.remote(echo).options(num_cpus=0.01, max_retries=3)
    ref = ray.put(data)
    out = tempfile.mkdtemp(prefix="chuhan-overhead-")
    started = time.time()
    running, submitted, done = [], 0, 0
    while done < args.tasks:
        while submitted < args.tasks and len(running) < args.max_in_flight:
            running.append(task.remote(submitted, ref))
            submitted += 1
        ready, running = ray.wait(running, num_returns=1)
        k, payload = ray.get(ready[0])
        write_atomic(os.path.join(out, f"unit-{k}.json"), payload)
        done += 1
    seconds = time.time() - started
    print(f"{args.tasks} tasks of {len(data)} bytes submitted, collected and written in "
          f"{seconds:.2f} s: {args.tasks / seconds:.0f} tasks/s")
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    os.rmdir(out)
    if args.merge:
        units = len([n for n in os.listdir(args.merge) if n.startswith("unit-")])
        t = time.time()
        code, _, err = merge_summary(os.path.abspath(args.chuhan), args.merge)
        if code not in (0, 1, 3):
            sys.exit(err)
        print(f"chuhan match --merge over {units} units: {time.time() - t:.3f} s")
    ray.shutdown()


if __name__ == "__main__":
    main()
