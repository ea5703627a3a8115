#!/usr/bin/env bash
# The full-size runs of the long tests: every test whose name ends in
# `_at_full_size` is an `#[ignore]`d twin of a test of the default run, with
# the size the default run cuts down (each states both sizes). `.ci/run` runs
# them once; run them before a change to the engines, the faults or the
# checker lands:
#
#   scripts/full-size-tests.sh
#
# HIVE_ORACLE_CASES=N scales the differential twin further (tests/common/mod.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

expected=12
listed=$(cargo test --locked --workspace -- --ignored --list at_full_size 2>/dev/null | grep -c ': test$' || true)
echo "full-size tests: $listed (expected $expected)"
if [ "$listed" -ne "$expected" ]; then
  echo "scripts/full-size-tests.sh expects $expected tests named *_at_full_size, found $listed: update it" >&2
  exit 1
fi
cargo test --locked --workspace -- --ignored at_full_size
