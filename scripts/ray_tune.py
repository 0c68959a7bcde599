#!/usr/bin/env python3
"""A `fusescope tune` sweep spread over a Ray cluster, one trial per Ray task.

    ray_tune.py RUN.fsdb [--address ADDR] [--fusescope PATH] [--worker-fusescope PATH]
                [--max-retries N] [--timeout S] [--trials-out TRIALS.json]
                [--json] [--no-save] [--plot OUT.svg] [--progress]
                [--pass N] [--kernel NAME ...] [--space SPACE] [--trials N]
                [--strategy grid|random] [--seed S] [--coverage F] [--reps N] [--warmup N]
                [--inputs DIR] [--input-seed S] [--rtol X] [--atol Y]

`fusescope tune RUN.fsdb --executor ray ...` runs this script with its own arguments (less
--executor) and --fusescope naming itself. The tune flags are fusescope's and mean what they
mean there; they are passed on to --plan and to each --trial as each needs them.

1. `fusescope tune RUN.fsdb --plan ...` runs here and lists the trials (kernel, configuration;
   each kernel's default build first).
2. The recording's bytes go into Ray's object store once (ray.put); every task receives them
   from there, writes them to a temporary file on its node and runs
   `fusescope tune FILE --trial --kernel K --config C ...` under a time limit (--timeout).
3. The answers are collected as they come; progress goes to stderr, one line per event:
       trial 7/24 fusion.3 tile=16 vector=8 unroll=2: 12.3 us on node worker-a [3f2a9c1b] (ok)
4. Every trial, with the node it finished on ("worker", the Ray node id) and how many times it
   was started ("attempts"), goes into one TRIALS.json that `fusescope tune RUN.fsdb --merge`
   stores in the recording as one tuning run. stdout gets "stored N trials as tuning run ID
   in RUN.fsdb", or with --json the stored run as `fusescope tune --list --json` lists it,
   and nothing else. --no-save stores nothing (--json prints the run that would have been);
   --plot writes `fusescope tune --list --plot`'s picture of the recording's runs.
SIGINT or SIGTERM cancels the trials still running or waiting and stores the finished ones
(settings "... cancelled"), as a local `fusescope tune` does; the exit status is then 130.

What is retried: a trial whose worker process or node died (a system failure: Ray reports it
as a crashed worker, a dead node or a lost object). It is submitted again, kept off every node
it was lost on while another node with a CPU is alive, until it has been started
1 + --max-retries times; one still lost after that is stored with status "error". Ray's own
task retries are off (max_retries=0) so that every attempt is one this script made, counted
and placed. What is not retried: a configuration that failed to compile or run, or that
overran --timeout (status "error" from fusescope or from the time limit: a result, not a
failure), and a fusescope that could not be started on a node (an error naming the node).

Each execution reports its start to a small actor on the driver's node, so that progress
shows where each trial runs and which node a lost attempt was on.

Exit status: 0 when the run was stored and no trial was lost; 1 when the plan, the cluster or
the merge failed, or when a trial was lost after every attempt (the run is stored all the
same); 2 for bad usage or when Ray is not installed (one line with the install command; a
source tree's .venv-ray is tried first); 130 when stopped by a signal.

For the failure test only: with FUSESCOPE_RAY_TUNE_HOLD=DIR (a folder every node sees), each
trial's first execution, once its start is reported, waits until DIR/release-INDEX exists
(INDEX from 1), so that a test can kill a node while a known trial runs on it.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# The version scripts/setup_ray.sh installs; every node of a cluster needs the same one.
RAY_VERSION = "2.60.0"
INSTALL = f'pip install "ray=={RAY_VERSION}"  (or scripts/setup_ray.sh for .venv-ray)'
HOLD_ENV = "FUSESCOPE_RAY_TUNE_HOLD"
# A trial's temporary folder on its node: this prefix, the worker's process id, a dash.
SCRATCH_PREFIX = "fusescope-trial-"
# How often the driver looks for finished trials and reported starts (seconds).
POLL_S = 0.2
# Set by SIGINT or SIGTERM: the trials running are cancelled, the finished ones stored.
STOP = threading.Event()
# How long cancelled trials have to stop before their workers are killed (seconds).
CANCEL_GRACE_S = 10


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="ray_tune.py",
        description="Run a fusescope tune sweep's trials as Ray tasks and merge them into "
                    "the recording as one tuning run.")
    parser.add_argument("recording", metavar="RUN.fsdb")
    parser.add_argument("--address", help="the Ray cluster (host:port or ray://host:10001); "
                        "default $RAY_ADDRESS, else a Ray started on this machine")
    parser.add_argument("--fusescope", help="the fusescope that plans and merges here "
                        "(default $FUSESCOPE, else fusescope on PATH)")
    parser.add_argument("--worker-fusescope", help="the fusescope the nodes run: a path, or a "
                        "name looked up on each node's PATH (default: the same as --fusescope)")
    parser.add_argument("--max-retries", type=int, default=3, metavar="N",
                        help="times a trial lost to a dead worker or node is started again "
                             "(default 3)")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="S",
                        help="seconds one trial may take on its node (default 600)")
    parser.add_argument("--trials-out", metavar="TRIALS.json",
                        help="keep the merged trials in this file (default: a temporary file)")
    parser.add_argument("--json", action="store_true",
                        help="print the stored run as JSON (as `fusescope tune --json` does)")
    parser.add_argument("--progress", action="store_true",
                        help="accepted for `fusescope tune`'s sake: progress is always on stderr")
    parser.add_argument("--no-save", action="store_true",
                        help="run the trials but store no run (the trials go to --trials-out)")
    parser.add_argument("--no-compose", action="store_true",
                        help="store each kernel's best by itself (default: the merge puts the "
                        "bests together here and keeps those that speed the whole module up)")
    parser.add_argument("--plot", metavar="OUT.svg",
                        help="plot the recording's tuning runs once this one is stored")
    tune = parser.add_argument_group("passed to fusescope tune --plan and --trial")
    tune.add_argument("--kernel", action="append", default=[], metavar="NAME")
    for flag, _, _ in TUNE_FLAGS:
        tune.add_argument(flag, metavar="VALUE")
    args = parser.parse_args(argv)
    if args.max_retries < 0:
        parser.error("--max-retries must be 0 or more")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    return args


# fusescope tune's flags passed on as given: (flag, to --plan, to each --trial). The plan gets
# --reps, --warmup and the inputs too: it writes them into the run's settings.
TUNE_FLAGS = (
    ("--pass", True, True),
    ("--space", True, False),
    ("--trials", True, False),
    ("--strategy", True, False),
    ("--seed", True, False),
    ("--coverage", True, False),
    ("--reps", True, True),
    ("--warmup", True, True),
    ("--inputs", True, True),
    ("--input-seed", True, True),
    ("--rtol", False, True),
    ("--atol", False, True),
)


def flag_value(args, flag):
    return getattr(args, flag[2:].replace("-", "_"))


def count(number, noun):
    return f"{number} {noun}{'s' * (number != 1)}"


def say(text):
    print(text, file=sys.stderr, flush=True)


class Failure(Exception):
    """One line that ends the sweep with exit status 1."""


def plan_command(args, fusescope):
    command = [fusescope, "tune", args.recording, "--plan"]
    for kernel in args.kernel:
        command += ["--kernel", kernel]
    for flag, to_plan, _ in TUNE_FLAGS:
        if to_plan and flag_value(args, flag) is not None:
            command += [flag, flag_value(args, flag)]
    return command


def trial_flags(args):
    """The flags every `fusescope tune --trial` gets besides its kernel and configuration."""
    flags = []
    for flag, _, to_trial in TUNE_FLAGS:
        if to_trial and flag_value(args, flag) is not None:
            flags += [flag, flag_value(args, flag)]
    return flags


def run_here(command, what):
    """Runs a fusescope command on this machine; its stdout, or Failure with its error line."""
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise Failure(f"cannot run {command[0]}: {error.strerror}") from error
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise Failure(f"{what} failed: {lines[-1]}")
    return done.stdout


def read_plan(args, fusescope):
    text = run_here(plan_command(args, fusescope), "fusescope tune --plan")
    try:
        plan = json.loads(text)
        trials = plan["trials"]
        if not isinstance(trials, list) or not all(
                isinstance(t, dict) and isinstance(t.get("kernel"), str)
                and isinstance(t.get("config"), str) for t in trials):
            raise ValueError("each trial needs a kernel and a config")
    except (ValueError, KeyError, TypeError) as error:
        raise Failure(f"fusescope tune --plan answered no plan: {error}") from error
    return plan


def trial_error(error, host=None, worker=None):
    result = {"status": "error", "error": error}
    if host is not None:
        result["host"] = host
    if worker is not None:
        result["worker"] = worker
    return result


def death_signal_setter():
    """A function for the trial's child to run before exec that makes it die with the worker
    that started it (Linux's PR_SET_PDEATHSIG), so that a killed worker leaves no fusescope
    behind; None where there is no prctl. Resolved before the fork: the child only calls it."""
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def remove_stale_scratch():
    """Removes the temporary folders of trials whose worker died (killed with its node's
    raylet, or cancelled): each is named after its worker's process id."""
    folder = tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith(SCRATCH_PREFIX):
            continue
        pid = name[len(SCRATCH_PREFIX):].split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
        except OSError:
            pass  # alive, someone else's


def run_trial_on_node(recording, job, ledger):
    """The body of one Ray task: reports its start, runs one trial, returns its JSON object."""
    import ray  # on the node

    node = ray.get_runtime_context().get_node_id()
    host = socket.gethostname()
    index = job["index"]
    hold_dir = job.get("hold_dir")
    held = False
    if hold_dir:
        try:
            os.close(os.open(os.path.join(hold_dir, f"held-{index + 1}"),
                             os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            held = True
        except FileExistsError:
            pass
    ledger.started.remote(index, node, host, held)
    if held:
        release = os.path.join(hold_dir, f"release-{index + 1}")
        while not os.path.exists(release):
            time.sleep(0.05)

    fusescope = job["fusescope"]
    if os.sep not in fusescope:
        fusescope = shutil.which(fusescope) or fusescope
    remove_stale_scratch()
    with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-") as scratch:
        path = os.path.join(scratch, "recording.fsdb")
        with open(path, "wb") as out:
            out.write(recording)
        command = [fusescope, "tune", path, "--trial", "--kernel", job["kernel"],
                   "--config", job["config"]] + job["flags"]
        try:
            child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True,
                                     preexec_fn=death_signal_setter())
        except OSError as error:
            return trial_error(f"cannot run {fusescope} on {host}: {error.strerror}", host, node)
        try:
            out, err = child.communicate(timeout=job["timeout"])
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            return trial_error(f"timed out after {job['timeout']:g} s on {host}", host, node)
        except BaseException:
            # Cancelled (ray.cancel raises KeyboardInterrupt here): the trial's processes go
            # with it, and its folder is removed on the way out.
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            raise
    if child.returncode != 0:
        lines = err.strip().splitlines() or [f"exit status {child.returncode}"]
        return trial_error(f"fusescope tune --trial failed on {host}: {lines[-1]}", host, node)
    try:
        result = json.loads(out)
        if not isinstance(result, dict):
            raise ValueError("not a JSON object")
    except ValueError as error:
        return trial_error(f"fusescope tune --trial on {host} answered no JSON object: {error}",
                           host, node)
    result.setdefault("host", host)
    result["worker"] = node
    return result


class Ledger:
    """Where every trial's executions report their start (an actor on the driver's node)."""

    def __init__(self):
        self.events = []

    def started(self, index, node, host, held):
        self.events.append({"index": index, "node": node, "host": host, "held": held})

    def take(self, since):
        return self.events[since:]


class Sweep:
    def __init__(self, ray, args, plan, recording_ref, ledger, remote_trial, fusescope):
        self.ray = ray
        self.args = args
        self.trials = plan["trials"]
        self.recording_ref = recording_ref
        self.ledger = ledger
        self.remote_trial = remote_trial
        self.jobs = [{"index": i, "kernel": t["kernel"], "config": t["config"],
                      "fusescope": fusescope, "flags": trial_flags(args),
                      "timeout": args.timeout, "hold_dir": os.environ.get(HOLD_ENV) or None}
                     for i, t in enumerate(self.trials)]
        self.starts = [[] for _ in self.trials]      # the nodes each execution started on
        self.submissions = [0] * len(self.trials)
        self.lost_on = [set() for _ in self.trials]  # nodes a trial was lost on
        self.results = [None] * len(self.trials)
        self.pending = {}
        self.seen_events = 0
        self.node_names = {}
        self.lost = 0

    def label(self, index):
        trial = self.trials[index]
        return (f"trial {index + 1}/{len(self.trials)} {trial['kernel']} "
                f"{trial['config'] or '(default)'}")

    def node_label(self, node):
        if node not in self.node_names:
            self.refresh_nodes()
        return f"{self.node_names.get(node, '?')} [{node[:8]}]"

    def refresh_nodes(self):
        for entry in self.ray.nodes():
            self.node_names[entry["NodeID"]] = entry.get("NodeName") or entry.get(
                "NodeManagerAddress", "?")

    def attempts(self, index):
        return self.submissions[index]

    def submit(self, index):
        options = {"max_retries": 0, "retry_exceptions": False,
                   "name": f"fusescope trial {index + 1}"}
        avoid = self.lost_on[index] & self.alive_cpu_nodes()
        if avoid and self.alive_cpu_nodes() - avoid:
            options["label_selector"] = {"ray.io/node-id": f"!in({','.join(sorted(avoid))})"}
        self.submissions[index] += 1
        ref = self.remote_trial.options(**options).remote(
            self.recording_ref, self.jobs[index], self.ledger)
        self.pending[ref] = index
        return avoid if "label_selector" in options else set()

    def alive_cpu_nodes(self):
        return {entry["NodeID"] for entry in self.ray.nodes()
                if entry.get("Alive") and entry.get("Resources", {}).get("CPU", 0) >= 1}

    def report_starts(self):
        events = self.ray.get(self.ledger.take.remote(self.seen_events))
        self.seen_events += len(events)
        for event in events:
            index = event["index"]
            before = self.starts[index]
            self.starts[index] = before + [event["node"]]
            note = ""
            if before:
                note = "; lost before on " + ", ".join(self.node_label(n) for n in before)
            if event["held"]:
                note += f"; held until {self.jobs[index]['hold_dir']}/release-{index + 1}"
            say(f"{self.label(index)}: started on node {self.node_label(event['node'])} "
                f"(attempt {self.attempts(index)}{note})")

    def finish(self, index, result):
        # The plan's fields (kernel, config, whether it is the default build) under the
        # trial's answer.
        merged = dict(self.trials[index])
        merged.update(result)
        merged["attempts"] = self.attempts(index)
        self.results[index] = merged
        where = f"on node {self.node_label(merged['worker'])}" if merged.get("worker") else ""
        if merged.get("status") == "ok":
            verdict = merged.get("verdict", "")
            say(f"{self.label(index)}: {merged.get('median_us', float('nan')):.1f} us {where}"
                f" ({verdict}, attempt {merged['attempts']})")
        else:
            say(f"{self.label(index)}: error {where}: {merged.get('error', '?')}")

    def lose(self, index, error):
        kind = type(error).__name__
        first_line = (str(error).strip().splitlines() or [""])[0][:160]
        if self.starts[index]:
            self.lost_on[index].add(self.starts[index][-1])
        if self.attempts(index) < self.args.max_retries + 1:
            avoided = self.submit(index)
            kept_off = ", kept off " + ", ".join(
                self.node_label(n) for n in sorted(avoided)) if avoided else ""
            say(f"{self.label(index)}: lost ({kind}: {first_line}); submitted again{kept_off}, "
                f"attempt {self.attempts(index)} of at most {self.args.max_retries + 1}")
            return
        self.lost += 1
        worker = self.starts[index][-1] if self.starts[index] else None
        self.results[index] = dict(
            self.trials[index],
            **trial_error(f"lost after {count(self.attempts(index), 'attempt')}: "
                          f"{kind}: {first_line}", worker=worker),
            attempts=self.attempts(index))
        say(f"{self.label(index)}: lost after {count(self.attempts(index), 'attempt')} ({kind})")

    def cancel_pending(self):
        """Cancels the trials not finished: a running one is interrupted, kills its fusescope
        and removes its folder; one that has not stopped after CANCEL_GRACE_S is killed with
        its worker."""
        refs = list(self.pending)
        for ref in refs:
            self.ray.cancel(ref)
        _, left = self.ray.wait(refs, num_returns=len(refs), timeout=CANCEL_GRACE_S)
        for ref in left:
            self.ray.cancel(ref, force=True)
        self.pending.clear()

    def run(self):
        from ray import exceptions as rx
        lost_kinds = (rx.WorkerCrashedError, rx.NodeDiedError, rx.ObjectLostError,
                      rx.LocalRayletDiedError, rx.OutOfMemoryError, rx.RaySystemError)
        for index in range(len(self.trials)):
            self.submit(index)
        while self.pending:
            if STOP.is_set():
                say(f"ray_tune: stopping: {count(len(self.pending), 'trial')} cancelled, "
                    f"{count(sum(r is not None for r in self.results), 'trial')} kept")
                self.cancel_pending()
                break
            ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=POLL_S)
            self.report_starts()
            for ref in ready:
                index = self.pending.pop(ref)
                try:
                    result = self.ray.get(ref)
                except lost_kinds as error:
                    self.lose(index, error)
                except rx.RayTaskError as error:
                    # The task itself raised: a fault of this script, not of the worker.
                    self.results[index] = dict(
                        self.trials[index],
                        **trial_error(f"the trial's task raised: {str(error).splitlines()[0]}"),
                        attempts=self.attempts(index))
                    say(f"{self.label(index)}: the task raised: {error}")
                else:
                    self.finish(index, result)
        self.report_starts()
        return [result for result in self.results if result is not None]


def connect(ray, address):
    import logging
    try:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False,
                 configure_logging=True)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise Failure(f"cannot connect to the Ray cluster at {address or 'this machine'}: "
                      f"{str(error).splitlines()[0] if str(error) else type(error).__name__}"
                      ) from error


def import_ray(argv):
    """Ray, or None. A source tree's .venv-ray (scripts/setup_ray.sh) is used when this
    Python has no Ray: this script is run again with that Python."""
    try:
        import ray
        return ray
    except ImportError:
        pass
    venv = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         os.pardir, ".venv-ray"))
    venv_python = os.path.join(venv, "bin", "python")
    if (os.path.isfile(venv_python) and not os.environ.get("FUSESCOPE_RAY_TUNE_REEXEC")
            and os.path.realpath(sys.prefix) != venv):
        os.environ["FUSESCOPE_RAY_TUNE_REEXEC"] = "1"
        os.execv(venv_python, [venv_python, os.path.abspath(__file__)] + argv)
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    ray = import_ray(argv)
    if ray is None:
        say(f"ray_tune: Ray is not installed for {sys.executable}: {INSTALL}")
        return 2
    # stdout carries the answer alone: whatever else writes to it (Ray's driver prints the
    # cluster's error messages there) goes to stderr with the progress.
    answer = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    fusescope = args.fusescope or os.environ.get("FUSESCOPE") or shutil.which("fusescope")
    if not fusescope:
        say("ray_tune: no fusescope: give --fusescope PATH or put fusescope on PATH")
        return 2
    worker_fusescope = args.worker_fusescope or fusescope
    if not os.path.isfile(args.recording):
        say(f"ray_tune: {args.recording}: no such file")
        return 2
    try:
        plan = read_plan(args, fusescope)
        trials = plan["trials"]
        if not trials:
            raise Failure("the plan has no trials (no kernel matched, or an empty space)")
        kernels = len({t["kernel"] for t in trials})
        say(f"ray_tune: {count(len(trials), 'trial')} over {count(kernels, 'kernel')} "
            f"({plan.get('strategy', '?')} over \"{plan.get('space', '?')}\", "
            f"snapshot {plan.get('snapshot', '?')})")
        address = args.address or os.environ.get("RAY_ADDRESS") or None
        connect(ray, address)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: STOP.set())
        try:
            results = sweep(ray, args, plan, worker_fusescope)
        finally:
            ray.shutdown()
            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, signal.SIG_DFL)
        lost = sum(1 for r in results if r.get("error", "").startswith("lost after"))
        ok = sum(1 for r in results if r.get("status") == "ok")
        summary = (f"{count(len(results), 'trial')}: {ok} ok, {len(results) - ok - lost} "
                   f"failed, {lost} lost")
        document = run_document(plan, results, STOP.is_set())
        path = write_trials(args, document)
        if args.no_save:
            if not args.trials_out:
                os.unlink(path)
            say(f"ray_tune: {summary}; not stored (--no-save)")
            if args.json:
                answer.write(json.dumps(document) + "\n")
            return 130 if STOP.is_set() else 1 if lost else 0
        run_id = merge(args, path, fusescope)
        say(f"ray_tune: {summary}; stored as tuning run {run_id}")
        if args.plot:
            run_here([fusescope, "tune", args.recording, "--list", "--json", "--plot",
                      args.plot], "fusescope tune --list --plot")
        if args.json:
            answer.write(json.dumps(stored_run(args, fusescope, run_id)) + "\n")
        else:
            answer.write(f"stored {count(len(results), 'trial')} as tuning run {run_id} in "
                         f"{args.recording}\n")
        answer.flush()
        return 130 if STOP.is_set() else 1 if lost else 0
    except Failure as failure:
        say(f"ray_tune: {failure}")
        return 1


def sweep(ray, args, plan, worker_fusescope):
    resources = ray.cluster_resources()
    cpus = int(resources.get("CPU", 0))
    if cpus < 1:
        raise Failure("the Ray cluster has no CPU for a trial (every node started with "
                      "--num-cpus=0?)")
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    with open(args.recording, "rb") as source:
        data = source.read()
    recording_ref = ray.put(data)
    say(f"ray_tune: Ray {ray.__version__}, {count(len(nodes), 'node')} with "
        f"{count(cpus, 'CPU')}; the recording "
        f"({len(data) / 1024:.0f} KiB) is in the object store")
    here = ray.get_runtime_context().get_node_id()
    ledger_class = ray.remote(num_cpus=0, max_restarts=0)(Ledger)
    try:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        ledger = ledger_class.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
            node_id=here, soft=False)).remote()
    except (ImportError, ValueError):
        ledger = ledger_class.remote()
    remote_trial = ray.remote(num_cpus=1)(run_trial_on_node)
    return Sweep(ray, args, plan, recording_ref, ledger, remote_trial, worker_fusescope).run()


def run_document(plan, results, stopped):
    """The run as `fusescope tune --merge` reads it: what the plan says of it (snapshot,
    strategy, space, settings), executor "ray", and the trials."""
    document = {key: value for key, value in plan.items() if key not in ("recording", "trials")}
    if stopped:
        document["settings"] = (document.get("settings", "") + " cancelled").strip()
    document.update(executor="ray", trials=results)
    return document


def write_trials(args, document):
    """TRIALS.json: --trials-out, else a temporary file (removed once merged)."""
    if args.trials_out:
        path = args.trials_out
    else:
        handle, path = tempfile.mkstemp(prefix="fusescope-trials-", suffix=".json")
        os.close(handle)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=1)
        out.write("\n")
    return path


def merge(args, path, fusescope):
    """Stores TRIALS.json in the recording; the run's id."""
    try:
        # The merge puts the kernels' bests together on this machine: it rebuilds the same
        # module and inputs as the trials did.
        command = [fusescope, "tune", args.recording, "--merge", path, "--json"]
        command += trial_flags(args)
        if args.no_compose:
            command.append("--no-compose")
        text = run_here(command, "fusescope tune --merge")
        run_id = json.loads(text)["run_id"]
    except (Failure, ValueError, KeyError, TypeError) as failure:
        raise Failure(f"{failure} (the trials are kept in {path})") from failure
    if not args.trials_out:
        os.unlink(path)
    return run_id


def stored_run(args, fusescope, run_id):
    """The run as the recording now holds it (`fusescope tune --list --json`)."""
    listing = json.loads(run_here([fusescope, "tune", args.recording, "--list", "--json"],
                                  "fusescope tune --list"))
    for run in listing.get("runs", []):
        if run.get("run_id") == run_id:
            return run
    raise Failure(f"tuning run {run_id} is not in {args.recording} after the merge")


if __name__ == "__main__":
    sys.exit(main())
