#!/bin/sh
# A wrapper that starts a CPU-burning background job, then runs a correct
# engine (issue 16): the job outlived the check.
( while :; do :; done ) &
exec "$HIVE_ORACLE" uhp
