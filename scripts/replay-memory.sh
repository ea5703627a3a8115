#!/usr/bin/env bash
# Peak resident memory of `hive-oracle replay` (and `validmoves`) on hostile and large record
# files, for one or more binaries side by side:
#
#   scripts/replay-memory.sh BINARY [BINARY...]     # e.g. target/release/hive-oracle
#
# Writes its inputs once to $REPLAY_MEMORY_DIR (default /tmp/replay-memory), about 400 MB:
#   archive.pgn   a 60 MB archive of legal games (a 40-ply hivegame record repeated, 96,000 games)
#   comments.pgn  62 MiB of `{}` comments inside one game
#   plies.pgn     62 MiB of misnumbered plies (every ply numbered 1)
#   games.pgn     a million two-line games (26 MB)
#   long.pgn      one game of 2.8 million plies (for `validmoves`)
#   big1..4.pgn   four copies of the archive, for `--jobs 4`
# and prints, for each binary and run, the exit status and the peak RSS in MiB (GNU time's %M),
# with the ratio to the largest input. Each run is capped at 4 GiB of virtual memory (ulimit -v),
# as the issue measured: a run past it aborts (exit 134) instead of swapping the machine.
# Memory, not time, is reported: the figures do not depend on machine load.
# REPLAY_MEMORY_ONLY=PATTERN runs only the cases whose label matches the grep pattern
# (e.g. REPLAY_MEMORY_ONLY=jobs for `--jobs 4` alone).
set -euo pipefail

dir=${REPLAY_MEMORY_DIR:-/tmp/replay-memory}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"

if [ ! -s "$dir/big4.pgn" ]; then
    python3 - "$dir" "$here/tests/records/pgn/hivegame-trailing-spaces.pgn" <<'EOF'
import sys
out, game_file = sys.argv[1], sys.argv[2]
game = open(game_file, encoding="utf-8").read().rstrip("\n") + "\n\n"
with open(f"{out}/archive.pgn", "w") as f:
    f.write(game * (60_000_000 // len(game)))
with open(f"{out}/comments.pgn", "w") as f:
    f.write('[GameType "Base"]\n\n1. wS1\n' + "{}" * (31 << 20) + "\n")
with open(f"{out}/plies.pgn", "w") as f:
    line = "1. wS1\n"
    f.write('[GameType "Base"]\n\n' + line * ((62 << 20) // len(line)))
with open(f"{out}/games.pgn", "w") as f:
    f.write('[GameType "Base"]\n1. wS1\n' * 1_000_000)
with open(f"{out}/long.pgn", "w") as f:
    f.write('[GameType "Base"]\n\n')
    f.write("".join(f"{i}. wQ wS1-\n" for i in range(1, 2_800_001)))
EOF
    for i in 1 2 3 4; do cp "$dir/archive.pgn" "$dir/big$i.pgn"; done
fi

mib() { echo $(( $(stat -c %s "$1") / 1048576 )); }

measure() { # binary, label, largest input, args...
    local bin=$1 label=$2 largest=$3
    shift 3
    if [ -n "${REPLAY_MEMORY_ONLY:-}" ] && ! grep -q -- "$REPLAY_MEMORY_ONLY" <<<"$label"; then
        return 0
    fi
    local status=0
    /usr/bin/time -f %M -o "$dir/rss" sh -c 'ulimit -v 4194304 && exec "$0" "$@"' \
        "$bin" "$@" >/dev/null 2>"$dir/stderr" || status=$?
    local kib
    kib=$(tail -1 "$dir/rss" | tr -dc 0-9)
    local rss=$(( ${kib:-0} / 1024 ))
    printf '  %-34s exit %3s  peak %6s MiB  (%s x the largest input, %s MiB)\n' \
        "$label" "$status" "$rss" "$(awk "BEGIN{printf \"%.1f\", $rss / $(mib "$largest")}")" \
        "$(mib "$largest")"
}

for bin in "$@"; do
    echo "$bin"
    measure "$bin" "replay archive (text)" "$dir/archive.pgn" replay "$dir/archive.pgn"
    measure "$bin" "replay archive (json)" "$dir/archive.pgn" replay --format json "$dir/archive.pgn"
    measure "$bin" "replay comment flood" "$dir/comments.pgn" replay "$dir/comments.pgn"
    measure "$bin" "replay misnumbered plies" "$dir/plies.pgn" replay "$dir/plies.pgn"
    measure "$bin" "replay a million games" "$dir/games.pgn" replay "$dir/games.pgn"
    measure "$bin" "replay --jobs 4 on four archives" "$dir/big1.pgn" replay --jobs 4 \
        "$dir/big1.pgn" "$dir/big2.pgn" "$dir/big3.pgn" "$dir/big4.pgn"
    measure "$bin" "validmoves 2.8 M plies" "$dir/long.pgn" validmoves "$dir/long.pgn"
done
