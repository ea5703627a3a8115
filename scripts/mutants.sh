#!/usr/bin/env bash
# Mutation testing of the rules package with cargo-mutants (configured in
# .cargo/mutants.toml; docs/development.md, "Mutation testing"):
#
#   scripts/mutants.sh sample [SEED] [N] [ROUNDS] [FIRST]
#                                          rounds FIRST (0) to ROUNDS-1 (3 rounds) of N (50)
#                                          mutants drawn from each of src/reference/, src/fast/
#                                          and src/core/ with SEED (1), run, scored per folder
#                                          with the 95 % interval; a round already run is kept
#   scripts/mutants.sh all [GLOB]          every mutant (of the files GLOB matches)
#   scripts/mutants.sh corpus [SEED] [N]   the sample of src/reference/ judged by the case
#                                          corpus alone (tests/cases through run_case)
#   scripts/mutants.sh diff BASE [MAX]     the mutants of the lines changed since BASE, at
#                                          most MAX (40) drawn from them; fails on a missed
#                                          mutant that tests/mutants/reviewed.toml does not
#                                          explain (what .ci/run runs)
#
# Each run writes its outcomes to target/mutation/NAME/mutants.out/ (cargo-mutants' own
# format: outcomes.json, caught.txt, missed.txt, …) and prints the table. Installs
# cargo-mutants when it is missing. A mutant costs a rebuild of the rules package and a run
# of its tests until the first failure (docs/development.md gives the figures).
set -euo pipefail
cd "$(dirname "$0")/.."

# tools: installs cargo-mutants and cargo-nextest when they are missing (only
# when a mutant is to be listed or run: a change that makes none costs nothing)
tools() {
    if ! cargo mutants --version >/dev/null 2>&1; then
        cargo install --locked cargo-mutants
    fi
    if ! cargo nextest --version >/dev/null 2>&1; then
        cargo install --locked cargo-nextest
    fi
}

reviewed=tests/mutants/reviewed.toml
mode="${1:-}"
shift || true

# run NAME ARGS...: cargo mutants with ARGS, its output in target/mutation/NAME/
run() {
    local name="$1"
    shift
    tools
    mkdir -p "target/mutation/$name"
    # exit status 2 means "some mutants missed", 3 "some timed out": the table says which
    cargo mutants --no-shuffle --output "target/mutation/$name" "$@" || {
        local status=$?
        if [[ $status -ne 2 && $status -ne 3 ]]; then
            echo "mutants: cargo mutants failed with status $status" >&2
            exit "$status"
        fi
    }
}

# regexes HOW NAME SEED N FILES...: the anchored regexes of the mutants drawn
# (HOW: `sample`, N of each folder, or `draw`, N in all) in target/mutation/NAME.re
regexes() {
    local how="$1" name="$2" seed="$3" count="$4" round=0
    shift 4
    if [[ "$how" == sample ]]; then
        round="$1"
        shift
    fi
    tools
    mkdir -p target/mutation
    cargo mutants --list "$@" > "target/mutation/$name.list"
    python3 scripts/mutants.py "$how" "target/mutation/$name.list" "$seed" "$count" "$round" > "target/mutation/$name.re"
    echo "mutants: $(wc -l < "target/mutation/$name.re") drawn with seed $seed from $(wc -l < "target/mutation/$name.list")"
}

# re_args FILE: -F REGEX for each line of FILE
re_args() {
    local line
    args=()
    while IFS= read -r line; do
        args+=(-F "$line")
    done < "$1"
}

case "$mode" in
    sample)
        seed="${1:-1}" count="${2:-50}" rounds="${3:-3}" first="${4:-0}"
        # rounds of COUNT mutants per folder, each a random sample disjoint
        # from the others: a run stopped after k rounds is a sample of k·COUNT
        # per folder; the table is of every round run so far with this seed
        # (FIRST: the rounds before it were run elsewhere, on another checkout)
        for ((round = first; round < rounds; round++)); do
            name="sample-$seed-$count-$round"
            if [[ -f "target/mutation/$name/mutants.out/outcomes.json" ]]; then
                echo "mutants: round $round already run (target/mutation/$name)"
                continue
            fi
            regexes sample "$name" "$seed" "$count" "$round"
            re_args "target/mutation/$name.re"
            run "$name" "${args[@]}"
        done
        python3 scripts/mutants.py score target/mutation/sample-"$seed-$count"-*/mutants.out/outcomes.json
        ;;
    all)
        if [[ -n "${1:-}" ]]; then
            run all --file "$1"
        else
            run all
        fi
        python3 scripts/mutants.py score target/mutation/all/mutants.out/outcomes.json
        ;;
    corpus)
        seed="${1:-1}" count="${2:-150}"
        # round 0's mutants of src/reference/, the same as `sample SEED N`'s
        # (--file would add to the configuration's folders, not replace them)
        regexes sample corpus "$seed" "$count" 0
        grep '^\^src/reference/' target/mutation/corpus.re > target/mutation/corpus-reference.re
        re_args target/mutation/corpus-reference.re
        # the case corpus alone: the test that runs every case of tests/cases
        # on both engines through the one runner (tests/cases.rs)
        run "corpus-$seed" "${args[@]}" -- -E 'test(=cases::every_case_passes_on_both_engines)'
        python3 scripts/mutants.py score "target/mutation/corpus-$seed/mutants.out/outcomes.json"
        ;;
    diff)
        base="${1:?usage: scripts/mutants.sh diff BASE [MAX]}"
        max="${2:-40}"
        mkdir -p target/mutation
        git diff "$base" -- src/reference src/fast src/core > target/mutation/change.diff
        if [[ ! -s target/mutation/change.diff ]]; then
            echo "mutants: no change to src/reference, src/fast or src/core since $base"
            exit 0
        fi
        regexes draw diff 1 "$max" --in-diff target/mutation/change.diff
        if [[ ! -s target/mutation/diff.re ]]; then
            echo "mutants: the change since $base makes no mutant"
            exit 0
        fi
        re_args target/mutation/diff.re
        # a fixed timeout instead of one set from a baseline run (the unmutated
        # tree's tests are `cargo test`'s to run): a mutant that makes a test
        # hang is stopped after 240 s and counts as caught
        run diff --in-diff target/mutation/change.diff --baseline=skip --timeout 240 --build-timeout 900 "${args[@]}"
        python3 scripts/mutants.py score target/mutation/diff/mutants.out/outcomes.json
        python3 scripts/mutants.py missed "$reviewed" target/mutation/diff/mutants.out/outcomes.json
        ;;
    *)
        sed -n '2,20p' "$0" >&2
        exit 2
        ;;
esac
