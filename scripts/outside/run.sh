#!/usr/bin/env bash
# Runs the own Hardhat 2 suite of a prepared third-party checkout (Uniswap v3-core,
# Uniswap v3-periphery: projects with a hardhat.config.ts), unchanged but for its network
# entry, on several targets, then prints one table of mocha's passing/failing/pending
# counts with each run's failures grouped by cause. Documented in scripts/outside/README.md.
# Not part of `npm test`.
#
# It only RUNS a checkout that is already prepared: the project's packages installed and
# its contracts compiled (see the README for which project and commit). It clones,
# installs and compiles nothing: every run is `hardhat test --no-compile`.
#
# Usage: scripts/outside/run.sh <project-dir> [target ...]
#   <project-dir>  the prepared checkout (node_modules/hardhat and artifacts/ present)
#   targets        default: hardhat anvil dualnet, in that order. One of:
#     hardhat           Hardhat's own network in process (the project's setup)
#     hardhat-istanbul  the same with hardfork istanbul, the chain's
#     hardhat-node      that network served over HTTP by `hardhat node` (istanbul)
#     anvil             Anvil over HTTP (--hardfork $ANVIL_HARDFORK)
#     dualnet           the dualnet CLI over HTTP (node $DUALNET_DIR/dist/cli.js $DUALNET_FLAGS)
#     plugin            dualnet's Hardhat 2 plugin in process (`--network dualnet`); needs
#                       dualnet installed in the checkout and Hardhat 2.22 or later there
# Environment (all optional):
#   OUTSIDE_WORK      the logs and the summary (default /tmp/outside-work)
#   DUALNET_DIR       the dualnet checkout whose built CLI runs (default: this repository)
#   DUALNET_FLAGS     the CLI's flags (default: --profile ethereum --hardfork istanbul)
#   DUALNET_HARDFORK  the plugin's hardfork (default istanbul, the chain's)
#   ANVIL             Anvil's binary (default: the one test/foundry-support.ts keeps in
#                     ~/.cache/dualnet-test, or `anvil` on PATH)
#   ANVIL_HARDFORK    Anvil's --hardfork (default istanbul, the chain's)
#   OUTSIDE_MOCHA_TIMEOUT  mocha's per-test timeout in ms for every run (default 300000)
#   OUTSIDE_PARALLEL  1: run the targets at the same time (each on its own server and log)
#   OUTSIDE_TESTS     test files to run instead of the whole suite
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONFIG="$HERE/hardhat.outside.config.ts"
DUALNET_DIR="${DUALNET_DIR:-$(cd "$HERE/../.." && pwd)}"
WORK="${OUTSIDE_WORK:-/tmp/outside-work}"
ANVIL_HARDFORK="${ANVIL_HARDFORK:-istanbul}"
DUALNET_FLAGS="${DUALNET_FLAGS---profile ethereum --hardfork istanbul}"
export OUTSIDE_MOCHA_TIMEOUT="${OUTSIDE_MOCHA_TIMEOUT:-300000}"

[ $# -ge 1 ] || { echo "usage: $0 <project-dir> [hardhat|hardhat-istanbul|hardhat-node|anvil|dualnet|plugin ...]" >&2; exit 2; }
PROJECT="$1"; shift
TARGETS=("$@"); [ ${#TARGETS[@]} -gt 0 ] || TARGETS=(hardhat anvil dualnet)
for t in "${TARGETS[@]}"; do
  case "$t" in hardhat|hardhat-istanbul|hardhat-node|anvil|dualnet|plugin) ;; *) echo "unknown target '$t' (hardhat, hardhat-istanbul, hardhat-node, anvil, dualnet or plugin)" >&2; exit 2 ;; esac
done
log() { echo "[outside] $*" >&2; }
refuse() { echo "$0: $*" >&2; exit 2; }

# The checkout must be prepared already (README: "Preparing a checkout").
[ -f "$PROJECT/hardhat.config.ts" ] || refuse "$PROJECT has no hardhat.config.ts: name a prepared checkout (see scripts/outside/README.md)"
PROJECT="$(cd "$PROJECT" && pwd)"
[ -d "$PROJECT/node_modules/hardhat" ] || refuse "$PROJECT has no node_modules/hardhat: its packages are not installed (see scripts/outside/README.md)"
[ -d "$PROJECT/artifacts" ] || refuse "$PROJECT has no artifacts/: it is not compiled (see scripts/outside/README.md)"
if [[ " ${TARGETS[*]} " == *" plugin "* ]]; then
  [ -f "$PROJECT/node_modules/dualnet/package.json" ] || refuse "$PROJECT has no node_modules/dualnet: the plugin target needs dualnet installed in the checkout"
fi
if [[ " ${TARGETS[*]} " == *" dualnet "* ]]; then
  [ -f "$DUALNET_DIR/dist/cli.js" ] || refuse "$DUALNET_DIR/dist/cli.js is missing: run npm run build in $DUALNET_DIR"
  [ -z "$(find "$DUALNET_DIR/src" -newer "$DUALNET_DIR/dist/cli.js" -name '*.ts' -print -quit)" ] || log "warning: $DUALNET_DIR/src has files newer than dist/: the CLI that runs is the last build"
fi
if [[ " ${TARGETS[*]} " == *" anvil "* ]]; then
  if [ -z "${ANVIL-}" ]; then
    ANVIL="$(ls "${XDG_CACHE_HOME:-$HOME/.cache}"/dualnet-test/anvil-*/node_modules/@foundry-rs/anvil-*/bin/anvil 2>/dev/null | tail -1 || true)"
    [ -n "$ANVIL" ] || ANVIL="$(command -v anvil || true)"
  fi
  [ -n "$ANVIL" ] && [ -x "$ANVIL" ] || refuse "no Anvil binary: set ANVIL (the tests' Anvil is in ~/.cache/dualnet-test once test/controls-anvil.test.ts has run)"
fi
mkdir -p "$WORK"
export OUTSIDE_PROJECT="$PROJECT"

# free_port, wait_rpc
source "$HERE/rpc.sh"
# Each server runs in its own process group (setsid), stopped as a whole. Its group id is
# kept in $WORK/servers/ until it is stopped, so that an interrupted run (Ctrl-C, an
# error) stops the servers it started, and only those.
rm -rf "$WORK/servers"; mkdir -p "$WORK/servers"
started_server() { echo "$1" >"$WORK/servers/$1"; }
stop_server() { kill -- "-$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; rm -f "$WORK/servers/$1"; }
stop_all() { for f in "$WORK"/servers/*; do [ -e "$f" ] && stop_server "$(cat "$f")"; done; return 0; }
trap stop_all EXIT

HARDHAT="$PROJECT/node_modules/.bin/hardhat"
hh() { (cd "$PROJECT" && node "$HARDHAT" --config "$CONFIG" "$@"); }

# Runs the suite on one target; the log is $WORK/<target>.log, its seconds $WORK/<target>.seconds.
run_suite() {
  local target="$1" network="$2" started=$SECONDS
  log "running the suite on $target"
  # shellcheck disable=SC2086
  if [ -n "$network" ]; then hh test --no-compile --network "$network" ${OUTSIDE_TESTS-} >"$WORK/$target.log" 2>&1 || true
  else hh test --no-compile ${OUTSIDE_TESTS-} >"$WORK/$target.log" 2>&1 || true; fi
  echo $((SECONDS - started)) >"$WORK/$target.seconds"
}

# Runs one target, with its server when it has one (stopped when the suite ends).
run_target() {
  local target="$1" port pid
  case "$target" in
    hardhat) run_suite hardhat "" ;;
    hardhat-istanbul) OUTSIDE_HARDHAT_HARDFORK=istanbul run_suite hardhat-istanbul "" ;;
    hardhat-node)
      port="$(free_port)"
      (cd "$PROJECT" && OUTSIDE_HARDHAT_HARDFORK=istanbul exec setsid node "$HARDHAT" --config "$CONFIG" node --port "$port") >"$WORK/hardhat-node.server.log" 2>&1 &
      pid=$!; started_server "$pid"
      wait_rpc "http://127.0.0.1:$port" || { log "hardhat node did not start"; tail "$WORK/hardhat-node.server.log" >&2; stop_server "$pid"; return 1; }
      # The `anvil` network entry is only a URL: it points at hardhat node here.
      ANVIL_URL="http://127.0.0.1:$port" run_suite hardhat-node anvil
      stop_server "$pid" ;;
    anvil)
      port="$(free_port)"
      setsid "$ANVIL" --port "$port" --hardfork "$ANVIL_HARDFORK" >"$WORK/anvil.server.log" 2>&1 &
      pid=$!; started_server "$pid"
      wait_rpc "http://127.0.0.1:$port" || { log "Anvil did not start"; tail "$WORK/anvil.server.log" >&2; stop_server "$pid"; return 1; }
      ANVIL_URL="http://127.0.0.1:$port" run_suite anvil anvil
      stop_server "$pid" ;;
    dualnet)
      echo "$(git -C "$DUALNET_DIR" rev-parse --short HEAD 2>/dev/null || echo '?') $DUALNET_FLAGS" >"$WORK/dualnet.version"
      port="$(free_port)"
      # shellcheck disable=SC2086
      (cd "$DUALNET_DIR" && exec setsid node dist/cli.js --rpcport "$port" --restport 0 --quiet $DUALNET_FLAGS) >"$WORK/dualnet.server.log" 2>&1 &
      pid=$!; started_server "$pid"
      wait_rpc "http://127.0.0.1:$port" || { log "dualnet did not start"; tail "$WORK/dualnet.server.log" >&2; stop_server "$pid"; return 1; }
      DUALNET_URL="http://127.0.0.1:$port" run_suite dualnet dualnet
      stop_server "$pid" ;;
    plugin) OUTSIDE_PLUGIN=1 run_suite plugin dualnet ;;
  esac
}

if [ "${OUTSIDE_PARALLEL:-0}" = 1 ]; then
  jobs_=()
  for target in "${TARGETS[@]}"; do run_target "$target" & jobs_+=($!); done
  for j in "${jobs_[@]}"; do wait "$j" || true; done
else
  for target in "${TARGETS[@]}"; do run_target "$target" || true; done
fi

# The table (also in $WORK/summary.md) and each run's failing tests.
reference=()
[[ " ${TARGETS[*]} " == *" hardhat-node "* ]] && reference=(--reference hardhat-node)
node "$HERE/summary.mjs" "$WORK" "${TARGETS[@]}" "${reference[@]}" | tee "$WORK/summary.md"
