#!/usr/bin/env bash
# Measures what a CI job that only lints installs: the packed package installed with and without
# --omit=optional (better-sqlite3 and pg), the time each install takes and the size of node_modules, and
# checks that `toolgate lint` works in the light install. Needs the npm registry. Usage: scripts/measure-install.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/toolgate-*.tgz)"
for mode in light full; do
  dir="$work/$mode"
  mkdir -p "$dir"
  echo '{ "name": "sample", "private": true }' > "$dir/package.json"
  flags=(--no-audit --no-fund --no-package-lock)
  [ "$mode" = light ] && flags+=(--omit=optional)
  start=$(date +%s.%N)
  (cd "$dir" && npm install "${flags[@]}" "$tarball" >/dev/null 2>&1)
  end=$(date +%s.%N)
  size=$(du -sk "$dir/node_modules" | cut -f1)
  packages=$(find "$dir/node_modules" -name package.json -not -path "*/node_modules/*/node_modules/*/node_modules/*" -path "*/node_modules/*/package.json" | wc -l)
  sqlite=$([ -d "$dir/node_modules/better-sqlite3" ] && echo yes || echo no)
  pg=$([ -d "$dir/node_modules/pg" ] && echo yes || echo no)
  sdk=$(du -sk "$dir/node_modules/@modelcontextprotocol" 2>/dev/null | cut -f1 || echo 0)
  printf '%s: %.1f s, node_modules %d KiB (%d package.json files), better-sqlite3: %s, pg: %s, @modelcontextprotocol: %s KiB\n' \
    "$mode" "$(echo "$end - $start" | bc)" "$size" "$packages" "$sqlite" "$pg" "$sdk"
  if [ "$mode" = light ]; then
    cp -r "$root/test/fixtures/config/valid-minimal/." "$dir/"
    (cd "$dir" && npx --no-install toolgate lint --format sarif > lint.sarif && echo "light: toolgate lint exits 0; SARIF $(wc -c < lint.sarif) bytes")
  fi
done
