#!/bin/sh
# A wrapper script without `exec`: the shell stays the engine's parent, and
# the engine hangs once four plies are played. Killing only the shell used
# to leave the hung engine behind.
"$HIVE_ORACLE" uhp --fault hang
