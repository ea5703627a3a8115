#!/usr/bin/env bash
# Fast perft of this checkout side by side with an earlier commit (the one before the move
# generator was sped up, by default), as the README's perft figures are measured:
#
#   scripts/perft-compare.sh [RUNS] [BASE_COMMIT]      # 5 runs, f33859a by default
#
# 1. Builds both in release mode: this checkout in its own target/, the base commit in a git
#    worktree (target/perf-base/, created once and left there, its own target/ inside; set
#    PERF_BASE_DIR to use another worktree, `git worktree prune` forgets a removed one).
# 2. Times `hive-oracle perft 7 Base` and `perft 6 Base+MLP` RUNS times each (the base commit
#    predates 0.3.0 and takes the game as `--game Base`),
#    base and new alternating, as CPU time (user + sys; the command counts every depth up to
#    the one named, the last taking about 94% of the time), and prints each run, the medians,
#    the ratio new/base and the ratio to nokamute 1.0.3 it implies: the base commit took 0.78x
#    nokamute's CPU time on Base depth 7 and 0.63x on Base+MLP depth 6 (measured side by side
#    on one quiet machine, five alternating runs each), so new/nokamute = new/base x that.
# 3. When valgrind is installed, counts the instructions of `perft 5` and `perft 6` of Base and
#    `perft 5` of Base+MLP under callgrind (the same on a loaded machine; a few seconds each).
#
# Both binaries must print the same leaf counts; the script stops if they do not.
# Timings are only meaningful on a quiet machine: the other figures are printed either way.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-5}"
base_commit="${2:-f33859a}"
if [[ ! "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/perft-compare.sh [RUNS] [BASE_COMMIT]   (RUNS a positive whole number)" >&2
    exit 2
fi

base_dir="${PERF_BASE_DIR:-target/perf-base}"
if [[ ! -d "$base_dir" ]]; then
    git worktree add --detach "$base_dir" "$base_commit" >/dev/null
fi
git -C "$base_dir" checkout --quiet --force --detach "$base_commit"
# The base lies inside this workspace's folder: an empty [workspace] table
# makes it a workspace of its own (a scratch change, undone by the checkout
# above at the next run).
if ! grep -q '^\[workspace\]' "$base_dir/Cargo.toml"; then
    printf '\n[workspace]\n' >> "$base_dir/Cargo.toml"
fi
echo "building this checkout ($(git rev-parse --short HEAD)) and the base ($base_commit)..."
cargo build --release --quiet -p hive-oracle
(cd "$base_dir" && CARGO_TARGET_DIR=target cargo build --release --quiet)
new_bin="target/release/hive-oracle"
base_bin="$base_dir/target/release/hive-oracle"

# cpu_seconds BIN ARGS...: runs `BIN ARGS...`, prints "SECONDS LEAVES" (user + sys, the last
# depth's leaf count)
cpu_seconds() {
    local out times
    out="$(mktemp)"
    times="$(mktemp)"
    local TIMEFORMAT="%U %S"
    { time "$@" >"$out" 2>/dev/null; } 2>"$times"
    awk '{ printf "%.3f", $1 + $2 }' "$times"
    printf ' %s\n' "$(tail -n 1 "$out" | cut -f 2)"
    rm -f "$out" "$times"
}

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo
echo "CPU time (user + sys, seconds), $runs alternating runs each, on $(nproc) cores,"
echo "load average $(cut -d ' ' -f 1-3 /proc/loadavg):"
for case in "Base 7 0.78" "Base+MLP 6 0.63"; do
    read -r game depth nokamute <<<"$case"
    base_times=()
    new_times=()
    for ((i = 1; i <= runs; i++)); do
        read -r base_cpu base_leaves < <(cpu_seconds "$base_bin" perft "$depth" --game "$game")
        read -r new_cpu new_leaves < <(cpu_seconds "$new_bin" perft "$depth" "$game")
        if [[ "$base_leaves" != "$new_leaves" ]]; then
            echo "$game depth $depth: the leaf counts differ: base $base_leaves, new $new_leaves" >&2
            exit 1
        fi
        base_times+=("$base_cpu")
        new_times+=("$new_cpu")
    done
    base_median="$(printf '%s\n' "${base_times[@]}" | median)"
    new_median="$(printf '%s\n' "${new_times[@]}" | median)"
    echo "  $game depth $depth ($new_leaves leaves)"
    echo "    base: ${base_times[*]}  median $base_median"
    echo "    new:  ${new_times[*]}  median $new_median"
    awk -v b="$base_median" -v n="$new_median" -v k="$nokamute" 'BEGIN {
        printf "    new/base %.3f; new/nokamute %.2f (base/nokamute %.2f)\n", n / b, k * n / b, k }'
done

echo
if ! command -v valgrind >/dev/null; then
    echo "instruction counts: SKIPPED (valgrind is not installed)"
    exit 0
fi
# instructions BIN ARGS...: the instruction count of `BIN ARGS...` under callgrind
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk '/Collected/ { print $NF }'
}
echo "instructions (callgrind, the whole command):"
for case in "Base 5" "Base 6" "Base+MLP 5"; do
    read -r game depth <<<"$case"
    base_count="$(instructions "$base_bin" perft "$depth" --game "$game")"
    new_count="$(instructions "$new_bin" perft "$depth" "$game")"
    awk -v g="$game" -v d="$depth" -v b="$base_count" -v n="$new_count" 'BEGIN {
        printf "  %-8s depth %d: base %d, new %d, new/base %.3f\n", g, d, b, n, n / b }'
done
