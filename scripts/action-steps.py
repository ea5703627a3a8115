#!/usr/bin/env python3
"""Prints the `run:` script of one step of action.yml, by the step's name.

.ci/run uses it to run the Action's own check and summary steps on this
machine (GitHub Actions cannot run here), so that what the Action does with
check's exit status and report is tested, not only its YAML:

    scripts/action-steps.py "Check the engine" > step.sh

It reads the YAML with ruamel.yaml (installed with check-jsonschema).
"""

import sys
from pathlib import Path

from ruamel.yaml import YAML


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: action-steps.py STEP_NAME\n")
        return 2
    action = YAML(typ="safe").load(Path(__file__).resolve().parent.parent / "action.yml")
    for step in action["runs"]["steps"]:
        if step.get("name") == argv[1] and "run" in step:
            sys.stdout.write(step["run"])
            return 0
    sys.stderr.write(f"action.yml has no run step named {argv[1]!r}\n")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
