#!/bin/sh
# A wrapper that starts a CPU-burning background job, then runs a correct
# engine: the job used to outlive the check.
( while :; do :; done ) &
exec "$HIVE_ORACLE" uhp
