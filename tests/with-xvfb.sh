#!/bin/sh
# with-xvfb.sh WxH COMMAND...: runs COMMAND (through sh -c) on a virtual screen of its own, and
# exits with COMMAND's status.
#
# Why not xvfb-run: it hangs now and then when tests start screens side by side. It waits for
# Xvfb's "ready" signal with `wait`, and a signal that arrives before `wait` begins is lost, so
# it waits until Xvfb exits, which is never; and `-a` lets two runs choose the same display.
# Here Xvfb chooses a free display itself (-displayfd) and writes its number once it accepts
# connections.
set -u
size=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/with-xvfb.XXXXXX") || exit 1
Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
tries=0
until grep -q '^[0-9]' "$dir/display" 2>/dev/null; do
  if ! kill -0 $server 2>/dev/null || [ $tries -ge 300 ]; then
    echo "with-xvfb.sh: Xvfb did not start:" >&2
    cat "$dir/log" >&2
    exit 1
  fi
  tries=$((tries + 1))
  sleep 0.1
done
DISPLAY=:$(head -n 1 "$dir/display") sh -c "$*"
