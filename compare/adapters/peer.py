#!/usr/bin/env python3
"""A peer compiler's adapter for `fusescope compare`: request on stdin, answer on stdout.

Usage: python compare/adapters/peer.py COMPILER < request.json > response.json
COMPILER: xla, ort, tvm, iree, inductor, tensorrt. The protocol is README.md beside this file.

Each compiler is a module of peers/ (peers/tvm.py: a package, so that the module does not
shadow the compiler's own `tvm` package) with
  INSTALL             the command that installs it (the answer's `install`)
  load(response)      imports the compiler and records its versions; raises ImportError (or
                      OSError, for a missing shared library) when it is not installed, and
                      common.Unavailable when it cannot run here (TensorRT without a GPU)
  measure(request, response, deadline)   builds, runs and times every shape of the request
The exit status is 0 whenever an answer was written, also when the compiler failed.
"""

import importlib
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402  (after the path that finds it)

COMPILERS = ("xla", "ort", "tvm", "iree", "inductor", "tensorrt")


def main():
    answer = common.stdout_for_answer()
    if len(sys.argv) != 2 or sys.argv[1] not in COMPILERS:
        print(f"usage: peer.py {{{','.join(COMPILERS)}}} < request.json", file=sys.stderr)
        return 2
    compiler = sys.argv[1]
    adapter = importlib.import_module(f"peers.{compiler}")
    try:
        request = common.read_request(sys.stdin)
    except common.RequestError as error:
        response = common.Response(compiler, adapter.INSTALL)
        response.doc["error"] = f"bad request: {error}"
        answer.write(response.document())
        return 0
    response = common.Response(compiler, adapter.INSTALL)
    try:
        adapter.load(response)
    except (ImportError, OSError) as error:
        response.unavailable(f"{compiler} is not importable in {sys.executable}: {error}")
        answer.write(response.document())
        return 0
    except common.Unavailable as error:
        response.unavailable(str(error))
        answer.write(response.document())
        return 0
    try:
        adapter.measure(request, response, common.Deadline(request["deadline_s"]))
    except Exception as error:  # noqa: BLE001  (whatever failed, the answer says it)
        traceback.print_exc()
        response.doc["error"] = common.error_text(error)
    answer.write(response.document())
    return 0


if __name__ == "__main__":
    sys.exit(main())
