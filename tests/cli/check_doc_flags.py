#!/usr/bin/env python3
"""Every flag a doc's command lines give a command is one that command declares.

Usage: check_doc_flags.py FUSESCOPE DOC.md...

Reads the indented blocks of each doc: a line `    fusescope COMMAND ...` (or one part of it
after `&&`) and the lines that continue it (indented further than it and than its
description's eight spaces), and checks each `--flag` (and `-o`) on them against
`fusescope help COMMAND`. The workbench (`gui`) parses its own options and is left out. Prints one line per flag that
is not there and exits 1; else prints what it checked.
"""
import re
import subprocess
import sys


def declared(fusescope, command, cache={}):
    if command not in cache:
        run = subprocess.run([fusescope, "help", command], capture_output=True, text=True)
        cache[command] = (set(re.findall(r"^  (-[-a-z0-9]+)", run.stdout, re.M))
                          if run.returncode == 0 else None)
    return cache[command]


def command_lines(text):
    """(line number, command, text) of each command line of the doc's indented blocks."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        for part in re.split(r"&&|\|\s", line):
            match = re.match(r"^\s*(?:\$ )?fusescope ([a-z][a-z-]*)(.*)$", part)
            if not match or not line.startswith("    "):
                continue
            words = match.group(2)
            j = i + 1
            indent = len(line) - len(line.lstrip())
            while j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > max(indent, 8) \
                    and lines[j].strip():
                words += " " + lines[j]
                j += 1
            yield i + 1, match.group(1), words


def main():
    fusescope, docs = sys.argv[1], sys.argv[2:]
    checked, missing = 0, 0
    for doc in docs:
        for number, command, words in command_lines(open(doc).read()):
            if command == "gui":  # the workbench parses its own options (app/gui_main.cpp)
                continue
            flags = declared(fusescope, command)
            if flags is None:
                print(f"{doc}:{number}: fusescope has no command '{command}'")
                missing += 1
                continue
            for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*|-o)(?![\w-])", words):
                checked += 1
                if flag not in flags:
                    print(f"{doc}:{number}: fusescope {command} declares no {flag}")
                    missing += 1
    print(f"{checked} flags on the docs' command lines checked, {missing} not declared")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
