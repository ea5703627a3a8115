#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ with the nightly toolchain, one after the other, installing
# cargo-fuzz first when it is missing: for SECONDS seconds each (60 by default), or for a fixed
# amount of work, RUNS inputs each from a fixed seed.
#
#   fuzz/run.sh [SECONDS] [TARGET...]      # every target when none is named
#   fuzz/run.sh --runs RUNS [TARGET...]    # what CI runs
#
# A run by time explores further on a fast machine and is different every time. A run by work
# (`--runs`, with libFuzzer's -seed=1) tries the same inputs on every machine, fast or loaded, so
# what it finds in CI it finds on a developer's machine first.
#
# Each target starts from its committed corpus (fuzz/corpus/TARGET/) and regressions
# (fuzz/regressions/TARGET/); the inputs it finds go to a scratch directory that is removed at
# the end (set FUZZ_SCRATCH=DIR to keep them), so the committed corpus is left alone.
# Exit status: 1 when a target finds a crash (libFuzzer saves the input under
# fuzz/artifacts/TARGET/ and prints it; see fuzz/regressions/README.md for what to do with it)
# or the targets do not build; 0 when every target ran clean, and also when fuzzing is skipped because
# there is no nightly toolchain or cargo-fuzz cannot be installed (a message says so).
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: fuzz/run.sh [SECONDS | --runs RUNS] [TARGET...]   (positive whole numbers)"
if [[ "${1:-}" == "--runs" ]]; then
    runs="${2:-}"
    if [[ ! "$runs" =~ ^[1-9][0-9]*$ ]]; then
        echo "$usage" >&2
        exit 2
    fi
    budget=(-runs="$runs" -seed=1)
    what="$runs inputs (seed 1)"
    shift 2
else
    seconds="${1:-60}"
    if [[ ! "$seconds" =~ ^[1-9][0-9]*$ ]]; then
        echo "$usage" >&2
        exit 2
    fi
    budget=(-max_total_time="$seconds")
    what="${seconds}s"
    shift || true
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(notation uhp_session differential make_unmake pgn_record sgf_record)
fi

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: SKIPPED: no nightly toolchain (cargo +nightly fails); cargo-fuzz needs one:"
    echo "fuzz:   rustup toolchain install nightly"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: cargo-fuzz is missing: cargo install --locked cargo-fuzz"
    if ! cargo install --locked cargo-fuzz; then
        echo "fuzz: SKIPPED: cargo-fuzz could not be installed (no network?)"
        exit 0
    fi
fi
cargo +nightly --version
cargo +nightly fuzz --version

# Every target is built once, in one build (cargo-fuzz's flags: coverage
# instrumentation, release with debug assertions and overflow checks on; -s
# none: no AddressSanitizer, which finds nothing in a crate without unsafe code
# and halves the speed), then the built binaries are run: a `cargo fuzz run`
# per target would check the build again before each run.
if ! cargo +nightly fuzz build -s none --debug-assertions; then
    echo "fuzz: FAILED: the fuzz targets do not build"
    exit 1
fi
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
built="fuzz/target/$host/release"

scratch="${FUZZ_SCRATCH:-}"
if [[ -z "$scratch" ]]; then
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
fi

for target in "${targets[@]}"; do
    echo "== fuzz $target for $what"
    mkdir -p "$scratch/$target" "fuzz/artifacts/$target"
    # -timeout=10: an input that takes 10 s is a finding (each input's work is bounded).
    if ! "$built/$target" -artifact_prefix="fuzz/artifacts/$target/" \
        "$scratch/$target" "fuzz/corpus/$target" "fuzz/regressions/$target" \
        "${budget[@]}" -timeout=10 -print_final_stats=1; then
        echo "fuzz: FAILED: $target found a crash (see above; the input is under fuzz/artifacts/$target/)"
        exit 1
    fi
done
echo "fuzz: every target ran $what without a finding: ${targets[*]}"
