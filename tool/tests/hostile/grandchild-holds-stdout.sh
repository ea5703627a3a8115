#!/bin/sh
# An engine that leaves a process holding its stdout, then crashes mid-game:
# the engine's process is gone but its output never ends, which used to
# be reported as a timeout and leave the holder running.
sleep 1000 &
exec "$HIVE_ORACLE" uhp --fault crash-mid-game
