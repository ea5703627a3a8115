#!/usr/bin/env python3
"""The Markdown job summary of a `hive-oracle check` JUnit report.

Used by action.yml (the GitHub Action) after `hive-oracle check --format
junit --out FILE`, and tested by .ci/run on a passing and a failing report.

    check-summary.py REPORT.xml EXIT_STATUS > summary.md

The verdict comes from check's exit status (0 pass, 1 fail, 2 could not
run), not from the counts, so that the summary says what the gate did. The
causes (test cases of class hive-oracle.check.findings) are listed with
their status, and each failing one with its full text: the shortest
instance, the reproduce command and the explain command. Everything quoted
from the engine is put in code blocks whose fence is longer than any run of
backticks inside, and the whole summary stays under GitHub's 1 MiB limit.
"""

import re
import sys
import xml.etree.ElementTree as ET

FINDINGS = "hive-oracle.check.findings"
# GitHub refuses a step summary over 1 MiB; stay well below it.
MAX_BYTES = 512 * 1024
# The most failing causes written out in full.
MAX_DETAILED = 30
# The most characters of one cause's text.
MAX_CAUSE_CHARS = 6000


def cell(text):
    """Text for a Markdown table cell: one line, pipes and backticks escaped."""
    text = " ".join(text.split())
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def code_block(text):
    """A fenced code block holding `text` verbatim."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def verdict_line(status, suite):
    engine = suite.get("name", "").removeprefix("hive-oracle check: ")
    word = {0: "PASS", 1: "FAIL"}.get(status, "COULD NOT RUN")
    return f"## hive-oracle check: {word}\n\nEngine: {cell(engine)}"


def causes(suite):
    """(status, name, text) of every cause, failing ones first."""
    out = []
    for case in suite.iter("testcase"):
        if case.get("classname") != FINDINGS:
            continue
        name = case.get("name", "")
        failed = case.find("failure")
        if failed is None:
            failed = case.find("error")
        if failed is not None:
            out.append(("fail", name, failed.text or failed.get("message", "")))
            continue
        passed = case.find("system-out")
        text = passed.text if passed is not None and passed.text else ""
        # "known: ..." or "advisory: ..." (a cause that does not fail)
        status, _, body = text.partition(": ")
        out.append((status or "pass", name, body))
    out.sort(key=lambda c: c[0] != "fail")
    return out


def summary(report_path, status):
    try:
        root = ET.parse(report_path).getroot()
    except (OSError, ET.ParseError) as error:
        word = "could not run" if status == 2 else f"exited with status {status}"
        return (
            f"## hive-oracle check: {'COULD NOT RUN' if status == 2 else 'FAIL'}\n\n"
            f"hive-oracle check {word} and wrote no readable report ({cell(str(error))}); "
            "its reason is in the step's log.\n"
        )
    suite = root.find("testsuite") if root.tag == "testsuites" else root
    if suite is None:
        return f"## hive-oracle check\n\nThe report {cell(report_path)} holds no test suite.\n"
    lines = [verdict_line(status, suite), ""]
    props = {p.get("name"): p.get("value", "") for p in suite.iter("property")}
    shown = ["version", "seed", "games", "game-types", "corpus", "rules", "baseline"]
    run = [f"{key} {cell(props[key])}" for key in shown if key in props]
    if run:
        lines += ["Run: " + ", ".join(run), ""]
    counts = {key: suite.get(key, "0") for key in ("tests", "failures", "errors", "skipped")}
    lines += [
        "| tests | failures | errors | skipped |",
        "|---:|---:|---:|---:|",
        f"| {counts['tests']} | {counts['failures']} | {counts['errors']} | {counts['skipped']} |",
        "",
    ]
    found = causes(suite)
    if not found:
        lines.append("No cause: every probe, case and game agreed with the reference.")
        return "\n".join(lines) + "\n"
    lines += ["| status | cause |", "|---|---|"]
    lines += [f"| {status_word} | {cell(name)} |" for status_word, name, _ in found]
    lines.append("")
    failing = [c for c in found if c[0] == "fail"]
    for _, name, text in failing[:MAX_DETAILED]:
        if len(text) > MAX_CAUSE_CHARS:
            text = text[:MAX_CAUSE_CHARS] + f"\n… ({len(text) - MAX_CAUSE_CHARS} more characters)"
        lines += [f"<details><summary>{cell(name)}</summary>", "", code_block(text), "", "</details>", ""]
    if len(failing) > MAX_DETAILED:
        lines.append(f"… and {len(failing) - MAX_DETAILED} more failing causes: see the JUnit report.")
    out = "\n".join(lines) + "\n"
    if len(out.encode()) > MAX_BYTES:
        cut = out.encode()[:MAX_BYTES].decode(errors="ignore")
        out = cut + "\n\n… (the summary is cut here: see the JUnit report)\n"
    return out


def main(argv):
    if len(argv) != 3 or not argv[2].lstrip("-").isdigit():
        sys.stderr.write("usage: check-summary.py REPORT.xml EXIT_STATUS\n")
        return 2
    sys.stdout.write(summary(argv[1], int(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
