#!/bin/sh
# An engine that leaves a process holding its stdout, then crashes mid-game
# (issue 16): the engine's process is gone but its output never ends, which
# was reported as a timeout and left the holder running.
sleep 1000 &
exec "$HIVE_ORACLE" uhp --fault crash-mid-game
