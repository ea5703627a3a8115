#!/bin/sh
# An engine with a banner that then echoes every command back and never
# says `ok` (issue 16).
echo "id echo 1.0"
echo "ok"
exec cat
