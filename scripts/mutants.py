#!/usr/bin/env python3
"""The mutation testing of the rules package: which mutants to run, and what
the runs found. `scripts/mutants.sh` calls it; docs/development.md ("Mutation
testing") says what the figures mean.

    mutants.py sample LIST SEED N [ROUND]
                                         round ROUND (0) of N mutants of each
                                         folder of LIST (the names `cargo mutants
                                         --list` prints): each folder shuffled
                                         with random.Random("SEED:FOLDER"), the
                                         N after the first ROUND·N; prints one
                                         anchored regex per line
    mutants.py draw LIST SEED N          N mutants of LIST in all (a change's,
                                         as CI runs them), drawn as above
    mutants.py score OUTCOMES...         the table of each folder: mutants,
                                         caught, missed, unviable, timeouts, the
                                         share of viable mutants caught and its
                                         95 % (Wilson) interval
    mutants.py missed REVIEWED OUTCOMES...
                                         the missed mutants that the reviewed
                                         list does not explain; exit 1 if any

A mutant's name is `FILE:LINE:COLUMN: DESCRIPTION`. The reviewed list
(`tests/mutants/reviewed.toml`) names a mutant by its file, its description
and its function (the description holds it: "replace > with >= in
can_slide"), without the line, so that an entry survives edits above it.
"""

import json
import math
import random
import re
import sys
import tomllib
from collections import OrderedDict

FOLDERS = ("src/reference/", "src/fast/", "src/core/")
NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<what>.*)$")


def folder_of(name):
    for folder in FOLDERS:
        if name.startswith(folder):
            return folder
    return None


def regex_escape(text):
    """Escapes text for the Rust regex crate (which cargo-mutants uses) as its
    own `regex::escape` does: the meta characters only. (Not every
    punctuation character: `\\<` and `\\>` are word boundaries there.)"""
    return "".join("\\" + c if c in META else c for c in text)


META = set("\\.+*?()|[]{}^$#&-~")


def sample(list_file, seed, per_folder, round_=0):
    """Round `round_` of N mutants of each folder: each folder's mutants in
    the order of one seeded shuffle, the N after the first `round_ * N`. So
    each round is a uniform random sample of its folder, disjoint from the
    other rounds, and rounds 0..k together are one sample of (k+1)·N."""
    names = [line.rstrip("\n") for line in open(list_file, encoding="utf-8") if line.strip()]
    by_folder = OrderedDict((folder, []) for folder in FOLDERS)
    for name in names:
        folder = folder_of(name)
        if folder:
            by_folder[folder].append(name)
    for folder, members in by_folder.items():
        order = random.Random(f"{seed}:{folder}").sample(members, len(members))
        chosen = order[round_ * per_folder:(round_ + 1) * per_folder]
        for name in sorted(chosen):
            print("^" + regex_escape(name) + "$")


def draw(list_file, seed, count):
    names = [line.rstrip("\n") for line in open(list_file, encoding="utf-8") if line.strip()]
    chosen = names if len(names) <= count else random.Random(seed).sample(names, count)
    for name in sorted(chosen):
        print("^" + regex_escape(name) + "$")


def outcomes(files):
    """Each mutant's name and summary (CaughtMutant, MissedMutant, Unviable,
    Timeout) from cargo-mutants' outcomes.json files."""
    for path in files:
        data = json.load(open(path, encoding="utf-8"))
        for outcome in data.get("outcomes", []):
            scenario = outcome.get("scenario")
            if not isinstance(scenario, dict) or "Mutant" not in scenario:
                continue
            mutant = scenario["Mutant"]
            name = mutant.get("name") or describe(mutant)
            yield name, outcome.get("summary")


def describe(mutant):
    span = mutant.get("span", {}).get("start", {})
    return f"{mutant.get('file')}:{span.get('line')}:{span.get('column')}: {mutant.get('name', '')}"


def wilson(caught, viable):
    if viable == 0:
        return (0.0, 0.0)
    z = 1.959964
    p = caught / viable
    centre = (p + z * z / (2 * viable)) / (1 + z * z / viable)
    half = z * math.sqrt(p * (1 - p) / viable + z * z / (4 * viable * viable)) / (1 + z * z / viable)
    return (centre - half, centre + half)


def score(files):
    rows = OrderedDict((folder, {"CaughtMutant": 0, "MissedMutant": 0, "Unviable": 0, "Timeout": 0})
                       for folder in FOLDERS)
    for name, summary in outcomes(files):
        folder = folder_of(name)
        if folder and summary in rows[folder]:
            rows[folder][summary] += 1
    print("| folder | mutants | caught | missed | unviable | timeouts | caught of viable | 95 % interval |")
    print("|---|---|---|---|---|---|---|---|")
    for folder, row in rows.items():
        total = sum(row.values())
        # a timeout counts as caught: the mutant made the tests hang
        caught = row["CaughtMutant"] + row["Timeout"]
        viable = caught + row["MissedMutant"]
        low, high = wilson(caught, viable)
        share = f"{100 * caught / viable:.1f} %" if viable else "-"
        print(f"| `{folder}` | {total} | {row['CaughtMutant']} | {row['MissedMutant']} | {row['Unviable']} | "
              f"{row['Timeout']} | {share} | {100 * low:.1f}–{100 * high:.1f} % |")


def reviewed_keys(path):
    data = tomllib.load(open(path, "rb"))
    keys = set()
    for entry in data.get("mutant", []):
        for field in ("file", "mutant", "why"):
            if not entry.get(field):
                raise SystemExit(f"{path}: an entry lacks `{field}`: {entry}")
        keys.add((entry["file"], entry["mutant"]))
    return keys


def missed(reviewed, files):
    keys = reviewed_keys(reviewed)
    unexplained = []
    for name, summary in outcomes(files):
        if summary != "MissedMutant":
            continue
        parsed = NAME.match(name)
        key = (parsed["file"], parsed["what"]) if parsed else (None, name)
        if key not in keys:
            unexplained.append(name)
    for name in unexplained:
        print(f"missed, and not in {reviewed}: {name}")
    return 1 if unexplained else 0


def main(argv):
    if len(argv) >= 5 and argv[1] == "sample":
        sample(argv[2], int(argv[3]), int(argv[4]), int(argv[5]) if len(argv) > 5 else 0)
        return 0
    if len(argv) >= 5 and argv[1] == "draw":
        draw(argv[2], int(argv[3]), int(argv[4]))
        return 0
    if len(argv) >= 3 and argv[1] == "score":
        score(argv[2:])
        return 0
    if len(argv) >= 4 and argv[1] == "missed":
        return missed(argv[2], argv[3:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
