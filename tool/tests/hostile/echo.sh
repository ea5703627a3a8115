#!/bin/sh
# An engine with a banner that then echoes every command back and never
# says `ok`: every command used to wait for it.
echo "id echo 1.0"
echo "ok"
exec cat
