#!/usr/bin/env bash
# OpenZeppelin Contracts' own Hardhat 2 suite (v5.4.0) through the dualnet plugin in
# process, on Hardhat's own network in process, and over HTTP against the dualnet CLI.
# Two modes: timing (interleaved rounds: plugin, hardhat, plugin, hardhat, ... on a test
# subset, wall-clock and CPU time (user+sys) of each `hardhat test` and mocha's own time) and counts (mocha's
# passing/failing/pending per target). Documented in scripts/outside/README.md
# ("OpenZeppelin Contracts"). Not part of `npm test`.
#
# Usage: scripts/outside/oz.sh <project-dir> timing|counts [targets...]
#   <project-dir>  a checkout of OpenZeppelin/openzeppelin-contracts at v5.4.0; cloned
#                  there if it does not exist (needs access to github.com).
#   timing         OZ_ROUNDS rounds (default 3) of: plugin, hardhat (in that order each
#                  round) on OZ_TESTS; prints each run's seconds, the medians and the ratio.
#   counts         each target once on OZ_TESTS (default: the whole suite); targets:
#                  plugin (--network dualnet), hardhat (the project's own network),
#                  http (--network dualnet-http: the dualnet CLI with --block-context
#                  ethereum, the same hardfork and 20 accounts). Default: all three.
# Environment (all optional):
#   OUTSIDE_WORK   solc-js, the logs and the results (default /tmp/outside-work/oz)
#   DUALNET_DIR    the dualnet checkout packed into the project (default: this repository)
#   OZ_TESTS       test files or directories, space-separated (timing default: test/token/ERC20 test/access)
#   OZ_SOURCES     sources to compile, prefixes under contracts/ (and contracts-exposed/);
#                  default: what the default OZ_TESTS deploy (their imports come along);
#                  OZ_SOURCES= (empty) compiles everything (about an hour with solc-js here)
#   OZ_ROUNDS      timing rounds (default 3)
#   OZ_HARDFORK    the devnet's hardfork (default prague: the EVM version OZ compiles for)
#   OZ_REUSE_DUALNET  1: keep the dualnet already installed in the project (no pack and install)
#   OZ_CPU_PROF    a directory: each timed run writes a V8 CPU profile there (node --cpu-prof)
#   OZ_RPC_STATS   a file: the requests of the (last) run per method, counted and timed
#                  (oz.outside.config.cjs writes it at exit)
#   OUTSIDE_MOCHA_TIMEOUT  mocha's per-test timeout in ms (default 300000)
set -euo pipefail

OZ_TAG=v5.4.0
SOLC_VERSION=0.8.27

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONFIG="$HERE/oz.outside.config.cjs"
DUALNET_DIR="${DUALNET_DIR:-$(cd "$HERE/../.." && pwd)}"
WORK="${OUTSIDE_WORK:-/tmp/outside-work/oz}"
export OZ_HARDFORK="${OZ_HARDFORK:-prague}"
export OUTSIDE_MOCHA_TIMEOUT="${OUTSIDE_MOCHA_TIMEOUT:-300000}"
# What test/token/ERC20 and test/access deploy: the access and ERC20 sources, the mocks they
# name, and the two utils libraries they expose (grep of deployContract in those tests).
export OZ_SOURCES="${OZ_SOURCES-access/ token/ERC20/ mocks/token/ mocks/AccessManagedTarget mocks/AccessManagerMock mocks/AuthorityMock mocks/BatchCaller mocks/CallReceiverMock mocks/ERC3156FlashBorrowerMock utils/Address utils/Create2}"

[ $# -ge 2 ] || { echo "usage: $0 <project-dir> timing|counts [plugin|hardhat|http ...]" >&2; exit 2; }
PROJECT="$1"; MODE="$2"; shift 2
case "$MODE" in timing|counts) ;; *) echo "unknown mode '$MODE' (timing or counts)" >&2; exit 2 ;; esac
TARGETS=("$@"); [ ${#TARGETS[@]} -gt 0 ] || TARGETS=(plugin hardhat http)
for t in "${TARGETS[@]}"; do
  case "$t" in plugin|hardhat|http) ;; *) echo "unknown target '$t' (plugin, hardhat or http)" >&2; exit 2 ;; esac
done
mkdir -p "$WORK"
log() { echo "[oz] $*" >&2; }

# 1. The checkout.
if [ ! -e "$PROJECT/package.json" ]; then
  log "cloning OpenZeppelin/openzeppelin-contracts at $OZ_TAG into $PROJECT"
  git clone --quiet --branch "$OZ_TAG" --depth 1 https://github.com/OpenZeppelin/openzeppelin-contracts "$PROJECT"
fi
PROJECT="$(cd "$PROJECT" && pwd)"

# 2. The project's packages (its package-lock.json; install scripts off: only husky's
# git hook has one), then dualnet packed from DUALNET_DIR (built first), installed
# beside them without saving, as a user installs a tarball.
if [ ! -d "$PROJECT/node_modules/hardhat" ]; then
  log "installing the project's packages (npm ci)"
  (cd "$PROJECT" && npm ci --ignore-scripts --no-audit --no-fund >"$WORK/install.log" 2>&1) || { tail -20 "$WORK/install.log" >&2; exit 1; }
fi
if [ "${OZ_REUSE_DUALNET:-0}" != 1 ]; then
  log "packing dualnet from $DUALNET_DIR"
  rm -rf "$WORK/pack" && mkdir -p "$WORK/pack"
  (cd "$DUALNET_DIR" && npm run build >"$WORK/build.log" 2>&1 && npm pack --ignore-scripts --pack-destination "$WORK/pack" >/dev/null 2>&1)
  (cd "$PROJECT" && npm install --no-save --ignore-scripts --no-audit --no-fund "$WORK"/pack/dualnet-*.tgz >"$WORK/install-dualnet.log" 2>&1) || { tail -20 "$WORK/install-dualnet.log" >&2; exit 1; }
fi

# 3. solc-js from npm, the version the project compiles with.
if [ ! -f "$WORK/solc/node_modules/solc/soljson.js" ]; then
  log "installing solc@$SOLC_VERSION (solc-js)"
  mkdir -p "$WORK/solc" && (cd "$WORK/solc" && { [ -f package.json ] || npm init -y >/dev/null; } && npm i --no-audit --no-fund "solc@$SOLC_VERSION" >/dev/null 2>&1)
fi
export OUTSIDE_PROJECT="$PROJECT" OUTSIDE_SOLCJS="$WORK/solc/node_modules/solc/soljson.js"

HARDHAT="$PROJECT/node_modules/hardhat/internal/cli/bootstrap.js"
hh() { (cd "$PROJECT" && node ${NODE_FLAGS-} "$HARDHAT" --config "$CONFIG" "$@"); }

# 4. Compile once; the runs below pass --no-compile and reuse the artifacts.
log "compiling (solc-js $SOLC_VERSION; a first compile takes many minutes)"
hh compile >"$WORK/compile.log" 2>&1 || { tail -30 "$WORK/compile.log" >&2; exit 1; }

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
      (cd "$DUALNET_DIR" && exec setsid node dist/cli.js --rpcport "$port" --quiet --block-context ethereum --hardfork "$OZ_HARDFORK" --accounts 20) >"$WORK/$name.server.log" 2>&1 &
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
  awk '{ printf "%.1f\n", $1 + $2 }' "$WORK/$name.cpu" >"$WORK/$name.cpuseconds"
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
