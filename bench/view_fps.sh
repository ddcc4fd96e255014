#!/bin/sh
# The live view's frame rate with about 100 000 balls (docs/viewing.md): runs bench/view_big.lua
# with --view, opens the page in headless Chromium in real time (kept open by its debugging
# port), and prints the frames per second the page reports to cairn (the status's "page"), four
# times ten seconds apart, with the WebGL renderer. Usage: bench/view_fps.sh [CAIRN]; PAGE_ARGS is
# added to the address (for example "&chains=0"); SCRIPT=tests/view/pour.lua measures the view
# test's pour of 1 089 spheres instead.
set -eu
cairn=${1:-build/cairn}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'kill $run $browser 2>/dev/null; rm -rf "$dir"' EXIT
VIEW_SECONDS=80 STEPS=100000000 "$cairn" run --view "${SCRIPT:-$here/view_big.lua}" \
  >"$dir/out" 2>"$dir/err" &
run=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q "http://" "$dir/err" && break; sleep 1; done
address=$(grep -o "http://[^ ]*" "$dir/err")
chromium --headless=new --no-sandbox --use-gl=angle --use-angle=swiftshader \
  --enable-unsafe-swiftshader --window-size=1200,800 --remote-debugging-port=0 "$address${PAGE_ARGS:-}" \
  >/dev/null 2>&1 &
browser=$!
status="${address%%/\?*}/status.json?token=${address##*token=}"
for _ in 1 2 3 4; do
  sleep 10
  python3 -c 'import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1]))
p = s.get("page", {})
print("%d balls drawn at %.1f frames per second by %s (step %d of the run)"
      % (p.get("drawn", 0), p.get("fps", 0), p.get("renderer", "?"), s["step"]))' "$status"
done
