#!/usr/bin/env python3
"""Sweeps on a Ray cluster (scripts/ray_tune.py) against a real local cluster, one node killed.

Starts a Ray head on 127.0.0.1 (no CPU: it only holds the driver's object store and the
adapter's ledger) and two worker nodes of one CPU each, `worker-a` and `worker-b`, every node
with its own temporary folder and ports. Compiles sample:mlp into a recording and runs
`ray_tune.py` on it with FUSESCOPE_RAY_TUNE_HOLD, so that each trial's first execution waits
for this script to release it once it has reported where it started. The order of events is
then set by this script alone, not by timing:
  1. nothing is released until two trials are held on two different nodes (both workers run);
  2. those are released; a trial held after them stays held until each node has finished
     one (so that a fast node cannot run the whole sweep while the other's trial runs);
  3. then a held trial is not released: its node's raylet and workers are killed (SIGKILL)
     while the trial runs on it;
  4. every other trial is released as it starts.
Checks that the adapter succeeded, that the killed trial was started again on the other node
(attempt 2) and finished there, that every trial of the plan is in the run exactly once, that
both workers' node ids are among the trials' workers, and that the recording has that run
(`fusescope tune RUN.fsdb --list --json`) with the same trials and attempts. Stops every node
it started, whatever happens.

Exits 77 (a skip for ctest) when this Python cannot import ray; with FUSESCOPE_REQUIRE_RAY=1
(scripts/test.sh sets it once scripts/setup_ray.sh made .venv-ray) that is a failure instead.
Usage: ray_tune_check.py FUSESCOPE
"""

import json
import os
import queue
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "scripts/ray_tune.py"
# The kernel's default build and four configurations: two trials for the first round, the
# third killed, the rest on the surviving node (the protocol needs three at least).
SPACE = "tile=8,16 vector=4,8 unroll=1,2"
TRIALS = 4
TUNE_FLAGS = ["--space", SPACE, "--trials", str(TRIALS)]
# The longest this script waits for any one event (a node up, a trial's next step); none of
# them takes more than a few seconds on an idle machine.
EVENT_DEADLINE_S = 90


class CheckFailed(Exception):
    pass


def free_port():
    """A port free now, below the kernel's ephemeral range (32768 and up) so that no
    connection's local port takes it before its node binds it, and above Ray's default
    worker ports (10002-19999)."""
    while True:
        port = random.randrange(20000, 32768)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port


def lines_of(stream, into, tag):
    for line in iter(stream.readline, ""):
        into.put((tag, line.rstrip("\n")))
    into.put((tag, None))


class Node:
    """One `ray start --block` process: the node's processes are its children."""

    def __init__(self, name, ray_cli, scratch, environment, extra):
        self.name = name
        self.temp_dir = scratch / name
        self.temp_dir.mkdir()
        ports = {flag: free_port() for flag in (
            "--node-manager-port", "--object-manager-port", "--metrics-export-port",
            "--runtime-env-agent-port", "--dashboard-agent-grpc-port",
            "--dashboard-agent-listen-port")}
        command = [str(ray_cli), "start", "--block", "--node-ip-address=127.0.0.1",
                   f"--temp-dir={self.temp_dir}", "--disable-usage-stats",
                   "--min-worker-port=0", "--max-worker-port=0",
                   "--object-store-memory=100000000"]
        command += [f"{flag}={port}" for flag, port in ports.items()] + extra
        self.log_path = scratch / f"{name}.log"
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        env=environment, start_new_session=True)
        self.started = threading.Event()
        self.ended = threading.Event()
        threading.Thread(target=self.keep_log, daemon=True).start()

    def keep_log(self):
        with open(self.log_path, "w", encoding="utf-8") as log:
            for line in iter(self.process.stdout.readline, ""):
                log.write(line)
                log.flush()
                if "Ray runtime started" in line:
                    self.started.set()
        self.ended.set()

    def wait_started(self):
        deadline = time.monotonic() + EVENT_DEADLINE_S
        while not self.started.is_set():
            if self.ended.is_set():
                raise CheckFailed(f"ray start for {self.name} exited {self.process.wait()} "
                                  f"before its node was up")
            if time.monotonic() > deadline:
                raise CheckFailed(f"{self.name} did not start within {EVENT_DEADLINE_S} s")
            self.started.wait(timeout=0.5)

    def descendants(self):
        """Every process below `ray start`, found through /proc's children lists."""
        found, frontier = [], [self.process.pid]
        while frontier:
            pid = frontier.pop()
            try:
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                frontier.append(child)
        return found

    def raylet_pid(self):
        for pid in self.descendants():
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == "raylet":
                    return pid
            except OSError:
                continue
        return None

    def kill(self):
        """The node dies as a machine would: its raylet and the workers under it, SIGKILL."""
        raylet = self.raylet_pid()
        if raylet is None:
            raise CheckFailed(f"no raylet under {self.name}'s ray start ({self.process.pid})")
        victims = [raylet] + [pid for pid in self.descendants() if pid != raylet]
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return raylet

    def stop(self):
        """SIGTERM to `ray start` (it stops its node's processes), then SIGKILL to whatever of
        them is left, by process id."""
        left = self.descendants()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Cluster:
    def __init__(self, ray_cli, scratch):
        self.ray_cli = ray_cli
        self.scratch = scratch
        self.nodes = {}
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        # Token authentication with a token of this cluster's own: nodes and drivers of
        # another cluster on this machine cannot join it, and ~/.ray/auth_token (which a
        # local ray.init() writes) is neither read nor written.
        self.environment = dict(os.environ, RAY_AUTH_MODE="token",
                                RAY_AUTH_TOKEN=secrets.token_hex(32),
                                RAY_USAGE_STATS_ENABLED="0")

    def start(self):
        head = Node("head", self.ray_cli, self.scratch, self.environment,
                    ["--head", f"--port={self.port}", "--num-cpus=0",
                     "--include-dashboard=false", f"--dashboard-port={free_port()}"])
        self.nodes["head"] = head
        head.wait_started()
        # One after the other: two nodes joining at once failed once in a few tries here.
        for name in ("worker-a", "worker-b"):
            self.nodes[name] = Node(name, self.ray_cli, self.scratch, self.environment,
                                    [f"--address={self.address}", "--num-cpus=1",
                                     f"--node-name={name}"])
            self.nodes[name].wait_started()

    def stop(self):
        for name in ("worker-b", "worker-a", "head"):
            if name in self.nodes:
                self.nodes[name].stop()


STARTED = re.compile(r"^trial (\d+)/(\d+) .*: started on node (\S+) \[([0-9a-f]+)\] "
                     r"\(attempt (\d+)(.*)\)$")
FINISHED = re.compile(r"^trial (\d+)/(\d+) .*: (?:[0-9.]+ us|error) on node (\S+) "
                      r"\[([0-9a-f]+)\]")


def drive(cluster, adapter, hold_dir, echo):
    """Reads the adapter's progress and releases, holds and kills as the docstring says.
    Returns (victim node, killed trial number, adapter exit status, stdout lines, stderr lines).

    A node runs one trial at a time and starts its next only once the one before was released
    and finished, so: two held trials are on two nodes; after the first round, a trial held
    while the other node has not finished yet stays held (its node can do nothing else
    meanwhile), and the kill comes as soon as both nodes have finished one and a trial is held.
    """
    events = queue.Queue()
    threading.Thread(target=lines_of, args=(adapter.stderr, events, "err"), daemon=True).start()
    stdout_lines = []
    threading.Thread(target=lambda: stdout_lines.extend(adapter.stdout.read().splitlines()),
                     daemon=True).start()
    progress = []
    held_on = {}         # trial number -> node, for trials held and not released
    finished_on = set()  # nodes that finished a trial
    phase = "first round"  # then "before the kill", then "after the kill"
    victim = killed_trial = None

    def release(trial):
        (hold_dir / f"release-{trial}").touch()
        held_on.pop(trial, None)

    while True:
        try:
            _, line = events.get(timeout=EVENT_DEADLINE_S)
        except queue.Empty:
            raise CheckFailed(f"the adapter said nothing for {EVENT_DEADLINE_S} s")
        if line is None:
            break
        echo(line)
        progress.append(line)
        started = STARTED.match(line)
        finished = FINISHED.match(line)
        if started and "held until" in started.group(6):
            held_on[int(started.group(1))] = started.group(3)
        elif finished:
            finished_on.add(finished.group(3))
        if phase == "first round" and len(set(held_on.values())) == 2:
            phase = "before the kill"
            for trial in list(held_on):
                release(trial)
        elif (phase == "before the kill" and held_on
              and finished_on >= {"worker-a", "worker-b"}):
            phase = "after the kill"
            killed_trial = min(held_on)
            victim = held_on.pop(killed_trial)
            raylet = cluster.nodes[victim].kill()
            echo(f"check: killed {victim} (raylet {raylet} and its workers) while trial "
                 f"{killed_trial} runs on it")
        if phase == "after the kill":
            for trial in list(held_on):
                release(trial)
    status = adapter.wait(timeout=EVENT_DEADLINE_S)
    return victim, killed_trial, status, stdout_lines, progress


def check(fusescope, scratch, echo):
    recording = scratch / "mlp.fsdb"
    compiled = subprocess.run([fusescope, "compile", "sample:mlp", "-o", str(recording)],
                              capture_output=True, text=True, timeout=300)
    if compiled.returncode != 0:
        raise CheckFailed(f"fusescope compile sample:mlp: {compiled.stderr.strip()}")
    # The plan the adapter will make: what the stored run must hold, trial for trial. Which
    # kernels a plan takes by default depends on a first timing of them; the check names one,
    # the first by name of those with the most trials among all kernels (--coverage 1), so
    # that both plans are the same whatever the timing.
    def make_plan(flags):
        planned = subprocess.run([fusescope, "tune", str(recording), "--plan"] + flags,
                                 capture_output=True, text=True, timeout=300)
        if planned.returncode != 0:
            raise CheckFailed(f"fusescope tune --plan: {planned.stderr.strip()}")
        return json.loads(planned.stdout)["trials"]
    per_kernel = {}
    for trial in make_plan(TUNE_FLAGS + ["--coverage", "1"]):
        per_kernel[trial["kernel"]] = per_kernel.get(trial["kernel"], 0) + 1
    kernel = min(per_kernel, key=lambda name: (-per_kernel[name], name))
    tune_flags = TUNE_FLAGS + ["--kernel", kernel]
    plan = [(t["kernel"], t["config"]) for t in make_plan(tune_flags)]
    # (A default trial is planned as config "default" and answers with the configuration the
    # default build used, marked "default": true.)
    if len(plan) < 3:
        raise CheckFailed(f"the plan has {len(plan)} trials; the check needs 3 at least")
    cluster = Cluster(Path(sys.executable).parent / "ray", scratch)
    hold_dir = scratch / "hold"
    hold_dir.mkdir()
    trials_out = scratch / "trials.json"
    try:
        started = time.monotonic()
        cluster.start()
        echo(f"check: head at {cluster.address} and two workers up in "
             f"{time.monotonic() - started:.1f} s")
        adapter = subprocess.Popen(
            [sys.executable, str(ADAPTER), str(recording), "--address", cluster.address,
             "--fusescope", fusescope] + tune_flags + [
             "--reps", "5", "--warmup", "1", "--timeout", "120",
             "--trials-out", str(trials_out), "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(cluster.environment, FUSESCOPE_RAY_TUNE_HOLD=str(hold_dir)))
        try:
            victim, killed_trial, status, stdout_lines, progress = drive(
                cluster, adapter, hold_dir, echo)
        finally:
            if adapter.poll() is None:
                adapter.kill()
                adapter.wait()
        echo(f"check: the sweep took {time.monotonic() - started:.1f} s with the cluster")
    finally:
        cluster.stop()

    failures = []
    if status != 0:
        raise CheckFailed(f"ray_tune.py exited {status}")
    if victim is None:
        raise CheckFailed("no trial was held after both workers had finished one: no node "
                          "was killed")
    survivor = "worker-b" if victim == "worker-a" else "worker-a"
    # The adapter saw the loss and started the trial again on the survivor, saying where it
    # had been lost.
    prefix = f"trial {killed_trial}/{len(plan)} "
    if not any(line.startswith(prefix) and ": lost (" in line and "submitted again" in line
               for line in progress):
        failures.append(f"the adapter did not report trial {killed_trial} as lost and "
                        "submitted again")
    again = [line for line in progress if line.startswith(prefix) and
             f"started on node {survivor} " in line and "(attempt 2; lost before on "
             f"{victim} " in line]
    if len(again) != 1:
        failures.append(f"no line says trial {killed_trial} started again on {survivor} "
                        f"after its loss on {victim}")
    document = json.loads(trials_out.read_text())
    trials = document["trials"]
    if document.get("executor") != "ray":
        failures.append(f"TRIALS.json: executor {document.get('executor')}, expected ray")
    if [(t["kernel"], "default" if t.get("default") else t["config"]) for t in trials] != plan:
        failures.append(f"TRIALS.json's trials are not the plan's {len(plan)}, each once, "
                        "in the plan's order")
    # Which node id is which worker: the progress lines name both.
    prefixes = {}
    for line in progress:
        named = STARTED.match(line) or FINISHED.match(line)
        if named:
            prefixes[named.group(4)] = named.group(3)

    def node_of(trial):
        worker = trial.get("worker") or ""
        return next((name for prefix, name in prefixes.items() if worker.startswith(prefix)),
                    f"an unknown node {worker[:8]}")
    finished_on = [node_of(t) for t in trials]
    if set(finished_on) != {"worker-a", "worker-b"}:
        failures.append(f"the trials finished on {sorted(set(finished_on))}, expected both "
                        "workers")
    killed = trials[killed_trial - 1]
    if killed.get("attempts") != 2 or finished_on[killed_trial - 1] != survivor:
        failures.append(f"trial {killed_trial} (killed on {victim}): attempts "
                        f"{killed.get('attempts')} on {finished_on[killed_trial - 1]}, "
                        f"expected 2 on {survivor}")
    for number, trial in enumerate(trials, 1):
        if number != killed_trial and trial.get("attempts") != 1:
            failures.append(f"trial {number}: attempts {trial.get('attempts')}, expected 1")
        if trial.get("status") != "ok":
            failures.append(f"trial {number} {trial['kernel']} {trial['config']}: "
                            f"{trial.get('status')} {trial.get('error', '')}")

    listing = subprocess.run([fusescope, "tune", str(recording), "--list", "--json"],
                             capture_output=True, text=True, timeout=60)
    if listing.returncode != 0:
        failures.append(f"fusescope tune --list --json: {listing.stderr.strip()}")
    else:
        failures += check_listing(json.loads(listing.stdout), stdout_lines, trials)
    echo(f"check: killed {victim} during trial {killed_trial}; it ran again on {survivor} "
         f"(attempts {killed.get('attempts')}); {len(trials)} trials, "
         f"{finished_on.count('worker-a')} finished on worker-a and "
         f"{finished_on.count('worker-b')} on worker-b, stored as one run")
    return failures


def check_listing(listing, stdout_lines, trials):
    """The run `--merge` stored, as `fusescope tune --list --json` lists it, and as the
    adapter printed it (--json)."""
    runs = listing.get("runs", [])
    if len(runs) != 1:
        return [f"the recording lists {len(runs)} tuning runs, expected 1"]
    run = runs[0]
    failures = []
    try:
        printed = json.loads("\n".join(stdout_lines))
    except ValueError:
        printed = None
    if printed != run:
        failures.append(f"ray_tune.py --json printed {stdout_lines[:3]}, not the stored run "
                        f"{run.get('run_id')}")
    if run.get("executor") != "ray":
        failures.append(f"the stored run's executor is {run.get('executor')}")
    stored = run.get("trials", [])
    if len(stored) != len(trials):
        return failures + [f"the stored run has {len(stored)} trials, expected {len(trials)}"]
    for number, (twin, trial) in enumerate(zip(stored, trials), 1):
        for key in ("kernel", "config", "default", "worker", "attempts", "status",
                    "median_us"):
            if twin.get(key) != trial.get(key):
                failures.append(f"trial {number}: stored {key} {twin.get(key)!r}, merged "
                                f"{trial.get(key)!r}")
    return failures


def main():
    if len(sys.argv) != 2:
        print("usage: ray_tune_check.py FUSESCOPE", file=sys.stderr)
        return 2
    fusescope = sys.argv[1]
    try:
        import ray
    except ImportError:
        message = (f"ray is not importable in {sys.executable}: run scripts/setup_ray.sh "
                   "(.venv-ray)")
        if os.environ.get("FUSESCOPE_REQUIRE_RAY") == "1":
            print(f"FAILED: {message}, but this machine's Ray environment was made "
                  "(FUSESCOPE_REQUIRE_RAY=1): a skipped test is not a pass")
            return 1
        print(f"SKIPPED: {message}")
        return 77

    def stop(signum, _frame):
        raise SystemExit(f"stopped by signal {signum}")
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)

    def echo(line):
        print(line, flush=True)
    echo(f"check: Ray {ray.__version__} ({sys.executable})")
    # A short path: the nodes' socket paths live under it.
    with tempfile.TemporaryDirectory(prefix="rt-", dir="/tmp") as scratch:
        try:
            failures = check(fusescope, Path(scratch), echo)
        except CheckFailed as failure:
            failures = [str(failure)]
            for log in sorted(Path(scratch).glob("*.log")):
                echo(f"--- {log.name} (last lines)")
                for line in log.read_text(errors="replace").splitlines()[-8:]:
                    echo("  " + line)
            # The nodes' own logs: the first errors each process wrote.
            for log in sorted(Path(scratch).glob("*/session_*/logs/*.[eo][ru][rt]")):
                errors = [line for line in log.read_text(errors="replace").splitlines()
                          if re.search(r"\b(E|F)\b \d+ \d+\]|Error|error:", line)][:3]
                if errors:
                    echo(f"--- {log.parent.parent.parent.name}/{log.name}")
                    for line in errors:
                        echo("  " + line[:300])
    if failures:
        for failure in failures:
            print("FAILED: " + failure)
        return 1
    print("ok: a sweep over two Ray workers survived one of them being killed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
