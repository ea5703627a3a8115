#!/bin/sh
# An engine whose banner never ends with `ok`; it reads and drops its input.
echo "id no-ok 1.0"
echo "Mosquito;Ladybug;Pillbug"
exec cat > /dev/null
