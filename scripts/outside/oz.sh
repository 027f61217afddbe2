#!/usr/bin/env bash
# OpenZeppelin Contracts' own Hardhat 2 suite (v5.4.0) through the dualnet plugin in
# process, on Hardhat's own network in process, and over HTTP against the dualnet CLI.
# Two modes: timing (interleaved rounds: plugin, hardhat, plugin, hardhat, ... on a test
# subset, wall-clock and CPU time (user+sys) of each `hardhat test` and mocha's own time) and counts (mocha's
# passing/failing/pending per target). Documented in scripts/outside/README.md
# ("OpenZeppelin Contracts"). Not part of `npm test`.
#
# It only RUNS a checkout that is already prepared: the project's packages installed,
# dualnet installed in it, and the sources the tests deploy compiled (see the README,
# "Preparing a checkout"). It clones, installs and compiles nothing: every run is
# `hardhat test --no-compile`.
#
# Usage: scripts/outside/oz.sh <project-dir> timing|counts [targets...]
#   <project-dir>  the prepared checkout of OpenZeppelin/openzeppelin-contracts at v5.4.0
#   timing         OZ_ROUNDS rounds (default 3) of: plugin, hardhat (in that order each
#                  round) on OZ_TESTS; prints each run's seconds, the medians and the ratio.
#   counts         each target once on OZ_TESTS (default: the whole suite); targets:
#                  plugin (--network dualnet), hardhat (the project's own network),
#                  http (--network dualnet-http: the dualnet CLI with --profile
#                  ethereum, the same hardfork and 20 accounts). Default: all three.
# Environment (all optional):
#   OUTSIDE_WORK   the logs and the results (default /tmp/outside-work/oz)
#   DUALNET_DIR    the dualnet checkout whose built CLI the http target runs (default: this repository)
#   OZ_TESTS       test files or directories, space-separated (timing default: test/token/ERC20
#                  test/access); `acceptance`: the 33 files of the acceptance run (README)
#   OZ_ROUNDS      timing rounds (default 3)
#   OZ_HARDFORK    the devnet's hardfork (default prague: the EVM version OZ compiles for)
#   OZ_CPU_PROF    a directory: each timed run writes a V8 CPU profile there (node --cpu-prof)
#   OZ_RPC_STATS   a file: the requests of the (last) run per method, counted and timed
#                  (oz.outside.config.cjs writes it at exit)
#   OUTSIDE_MOCHA_TIMEOUT  mocha's per-test timeout in ms (default 300000)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONFIG="$HERE/oz.outside.config.cjs"
DUALNET_DIR="${DUALNET_DIR:-$(cd "$HERE/../.." && pwd)}"
WORK="${OUTSIDE_WORK:-/tmp/outside-work/oz}"
export OZ_HARDFORK="${OZ_HARDFORK:-prague}"
export OUTSIDE_MOCHA_TIMEOUT="${OUTSIDE_MOCHA_TIMEOUT:-300000}"
# The acceptance run's 33 files (issues 19 and 36): ERC20 and its extensions, access
# control and AccessManager, cryptography, finance, Governor.
ACCEPTANCE="test/token/ERC20 test/access test/utils/cryptography test/finance test/governance/Governor.test.js"
[ "${OZ_TESTS-}" = acceptance ] && OZ_TESTS="$ACCEPTANCE"

[ $# -ge 2 ] || { echo "usage: $0 <project-dir> timing|counts [plugin|hardhat|http ...]" >&2; exit 2; }
PROJECT="$1"; MODE="$2"; shift 2
case "$MODE" in timing|counts) ;; *) echo "unknown mode '$MODE' (timing or counts)" >&2; exit 2 ;; esac
TARGETS=("$@"); [ ${#TARGETS[@]} -gt 0 ] || TARGETS=(plugin hardhat http)
for t in "${TARGETS[@]}"; do
  case "$t" in plugin|hardhat|http) ;; *) echo "unknown target '$t' (plugin, hardhat or http)" >&2; exit 2 ;; esac
done
refuse() { echo "$0: $*" >&2; exit 2; }
log() { echo "[oz] $*" >&2; }

# The checkout must be prepared already (README: "Preparing a checkout").
[ -f "$PROJECT/hardhat.config.js" ] || refuse "$PROJECT has no hardhat.config.js: name a prepared checkout of OpenZeppelin Contracts v5.4.0 (see scripts/outside/README.md)"
PROJECT="$(cd "$PROJECT" && pwd)"
[ -d "$PROJECT/node_modules/hardhat" ] || refuse "$PROJECT has no node_modules/hardhat: its packages are not installed (see scripts/outside/README.md)"
[ -f "$PROJECT/node_modules/dualnet/package.json" ] || refuse "$PROJECT has no node_modules/dualnet: dualnet is not installed in the checkout (see scripts/outside/README.md)"
[ -d "$PROJECT/artifacts/contracts-exposed" ] || refuse "$PROJECT has no artifacts/contracts-exposed: it is not compiled (see scripts/outside/README.md)"
if [[ " ${TARGETS[*]} " == *" http "* ]]; then
  [ -f "$DUALNET_DIR/dist/cli.js" ] || refuse "$DUALNET_DIR/dist/cli.js is missing: run npm run build in $DUALNET_DIR"
fi
mkdir -p "$WORK"
export OUTSIDE_PROJECT="$PROJECT"

HARDHAT="$PROJECT/node_modules/hardhat/internal/cli/bootstrap.js"
# free_port, wait_rpc
source "$HERE/rpc.sh"
SERVER=""
stop_server() { [ -n "$SERVER" ] && { kill -- "-$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; SERVER=""; }; return 0; }
trap stop_server EXIT

# Runs the suite once on a target: $WORK/<name>.log, and its wall-clock seconds in $WORK/<name>.seconds.
# shellcheck disable=SC2086
run_once() {
  local target="$1" name="$2" network=() started ended port
  case "$target" in
    plugin) network=(--network dualnet) ;;
    hardhat) network=() ;;
    http)
      port="$(free_port)"
      (cd "$DUALNET_DIR" && exec setsid node dist/cli.js --rpcport "$port" --restport 0 --quiet --profile ethereum --hardfork "$OZ_HARDFORK" --accounts 20) >"$WORK/$name.server.log" 2>&1 &
      SERVER=$!
      wait_rpc "http://127.0.0.1:$port" || { log "dualnet did not start"; tail "$WORK/$name.server.log" >&2; stop_server; return 1; }
      export DUALNET_URL="http://127.0.0.1:$port"
      network=(--network dualnet-http) ;;
  esac
  local prof=()
  [ -n "${OZ_CPU_PROF-}" ] && prof=(--cpu-prof --cpu-prof-dir "$OZ_CPU_PROF/$name")
  started=$(date +%s.%N)
  # CPU time (user + sys) of the hardhat process and its threads (EDR's native threads
  # are threads of it): GNU time's %U and %S.
  (cd "$PROJECT" && /usr/bin/time -f '%U %S' -o "$WORK/$name.cpu" node "${prof[@]}" "$HARDHAT" --config "$CONFIG" test --no-compile "${network[@]}" ${OZ_TESTS_RESOLVED} >"$WORK/$name.log" 2>&1) || true
  ended=$(date +%s.%N)
  stop_server
  echo "$ended - $started" | bc >"$WORK/$name.seconds"
  # GNU time writes "Command exited with non-zero status N" first when the suite fails.
  tail -n 1 "$WORK/$name.cpu" | awk '{ printf "%.1f\n", $1 + $2 }' >"$WORK/$name.cpuseconds"
}

# mocha's summary of a log: passing failing pending (its own time in seconds last).
counts_of() {
  node -e '
    const s = require("fs").readFileSync(process.argv[1], "utf8")
    const n = (re) => Number((s.match(re) || [0, 0])[1])
    const t = s.match(/(\d+) passing \((\d+)(ms|s|m)\)/)
    const secs = t ? Number(t[2]) * (t[3] === "ms" ? 0.001 : t[3] === "m" ? 60 : 1) : NaN
    console.log(n(/(\d+) passing/), n(/(\d+) failing/), n(/(\d+) pending/), secs)' "$1"
}

if [ "$MODE" = timing ]; then
  OZ_TESTS_RESOLVED="$(cd "$PROJECT" && find ${OZ_TESTS:-test/token/ERC20 test/access} -name '*.test.js' | sort | tr '\n' ' ')"
  rounds="${OZ_ROUNDS:-3}"
  log "timing: $rounds rounds of plugin, hardhat on $(echo $OZ_TESTS_RESOLVED | wc -w) files; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "| round | target | wall s | mocha s | cpu s | passing | failing | pending | load (1 min) |" >"$WORK/timing.md"
  echo "|--:|---|--:|--:|--:|--:|--:|--:|--:|" >>"$WORK/timing.md"
  for r in $(seq 1 "$rounds"); do
    for t in plugin hardhat; do
      load="$(cut -d' ' -f1 /proc/loadavg)"
      run_once "$t" "timing-$t-$r"
      read -r p f q m < <(counts_of "$WORK/timing-$t-$r.log")
      echo "| $r | $t | $(printf %.1f "$(cat "$WORK/timing-$t-$r.seconds")") | $m | $(cat "$WORK/timing-$t-$r.cpuseconds") | $p | $f | $q | $load |" >>"$WORK/timing.md"
      log "round $r $t: $(cat "$WORK/timing-$t-$r.seconds") s"
    done
  done
  node -e '
    const rows = require("fs").readFileSync(process.argv[1], "utf8").split("\n").slice(2).filter(Boolean).map((l) => l.split("|").map((c) => c.trim()))
    const median = (xs) => { xs = [...xs].sort((a, b) => a - b); return xs[(xs.length - 1) >> 1] * 0.5 + xs[xs.length >> 1] * 0.5 }
    const of = (t, col) => median(rows.filter((r) => r[2] === t).map((r) => Number(r[col])))
    const [pw, hw, pm, hm, pc, hc] = [of("plugin", 3), of("hardhat", 3), of("plugin", 4), of("hardhat", 4), of("plugin", 5), of("hardhat", 5)]
    console.log(`\nmedian wall: plugin ${pw.toFixed(1)} s, hardhat ${hw.toFixed(1)} s, ratio ${(pw / hw).toFixed(2)}`)
    console.log(`median mocha: plugin ${pm.toFixed(1)} s, hardhat ${hm.toFixed(1)} s, ratio ${(pm / hm).toFixed(2)}`)
    console.log(`median cpu (user+sys): plugin ${pc.toFixed(1)} s, hardhat ${hc.toFixed(1)} s, ratio ${(pc / hc).toFixed(2)}`)' "$WORK/timing.md" >>"$WORK/timing.md"
  cat "$WORK/timing.md"
else
  OZ_TESTS_RESOLVED="${OZ_TESTS:-}"
  [ -n "$OZ_TESTS_RESOLVED" ] && OZ_TESTS_RESOLVED="$(cd "$PROJECT" && find $OZ_TESTS_RESOLVED -name '*.test.js' | sort | tr '\n' ' ')"
  echo "| target | passing | failing | pending | wall s | cpu s |" >"$WORK/counts.md"
  echo "|---|--:|--:|--:|--:|--:|" >>"$WORK/counts.md"
  for t in "${TARGETS[@]}"; do
    run_once "$t" "counts-$t"
    read -r p f q _ < <(counts_of "$WORK/counts-$t.log")
    echo "| $t | $p | $f | $q | $(printf %.0f "$(cat "$WORK/counts-$t.seconds")") | $(cat "$WORK/counts-$t.cpuseconds") |" >>"$WORK/counts.md"
  done
  cat "$WORK/counts.md"
fi
