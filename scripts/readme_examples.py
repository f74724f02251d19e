#!/usr/bin/env python3
"""Regenerates the README's examples from real output, or checks that they are current.

Every fenced block whose lines start with `$ pegchain ...` is an example: each command runs
(from the repository root, `pegchain` being target/release/pegchain, through the shell so
that `| head -n 5` works) and its output replaces the lines up to the next `$ ` line or the
end of the block. A command followed by a `#` comment (a timing note on a long run) is shown
but not run.

    python3 scripts/readme_examples.py           # rewrite README.md in place
    python3 scripts/readme_examples.py --check   # exit 1 and name the stale examples

`--check` also checks that every relative link of the README and of docs/*.md leads to a file
of the repository and, where it names an anchor, to a heading of that file.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# PEGCHAIN names another build to check (a second target directory).
BIN = os.environ.get("PEGCHAIN", os.path.join(ROOT, "target", "release", "pegchain"))


def run(command):
    shell = re.sub(r"^pegchain\b", BIN, command.strip())
    shell = re.sub(r"\|\s*pegchain\b", "| " + BIN, shell)
    out = subprocess.run(["bash", "-c", "set -o pipefail; " + shell], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    if out.returncode not in (0, 141):  # 141: a closed pipe (`| head`) is fine
        sys.exit(f"readme_examples: `{command}` failed: {out.stderr.strip()}")
    return out.stdout.rstrip("\n").split("\n") if out.stdout.strip() else []


def regenerate(lines):
    out, stale, i, in_block = [], [], 0, False
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.startswith("```"):
            in_block = not in_block
            continue
        if not (in_block and line.startswith("$ pegchain")) or "#" in line:
            continue
        end = i
        while end < len(lines) and not lines[end].startswith("$ ") and not lines[end].startswith("```"):
            end += 1
        old = lines[i:end]
        # A blank line between one command's output and the next `$` line stays.
        keep_blank = end < len(lines) and lines[end].startswith("$ ") and old and old[-1] == ""
        new = run(line[2:]) + ([""] if keep_blank else [])
        if new != old:
            stale.append(line[2:])
        out.extend(new)
        i = end
    return out, stale


def anchor(heading):
    """The anchor GitHub gives a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links():
    """Relative links of the README and docs/*.md to a missing file or heading."""
    docs = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                                  if f.endswith(".md"))
    broken, anchors = [], {}  # each linked file's anchors, read once
    for doc in docs:
        with open(os.path.join(ROOT, doc)) as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            file, _, name = target.partition("#")
            path = os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), file)) if file else os.path.join(ROOT, doc)
            if not os.path.exists(path):
                broken.append(f"{doc}: {target}")
            elif name and path.endswith(".md"):
                if path not in anchors:
                    with open(path) as f:
                        anchors[path] = {anchor(h) for h in re.findall(r"^#+ (.*)$", f.read(), re.M)}
                if name not in anchors[path]:
                    broken.append(f"{doc}: {target}")
    return broken


def main():
    path = os.path.join(ROOT, "README.md")
    with open(path) as f:
        lines = f.read().split("\n")
    new, stale = regenerate(lines)
    if "--check" in sys.argv:
        for command in stale:
            print(f"stale README example: {command}")
        broken = broken_links()
        for link in broken:
            print(f"broken link: {link}")
        sys.exit(1 if stale or broken else 0)
    with open(path, "w") as f:
        f.write("\n".join(new))
    print(f"{len(stale)} examples regenerated")


if __name__ == "__main__":
    main()
