#!/usr/bin/env bash
# Runs a third-party project's own Hardhat suite (Uniswap v3-core) three times, unchanged
# but for its network entry: on Hardhat's built-in network, on Anvil over HTTP, and on the
# dualnet CLI over HTTP; then prints one table of mocha's passing/failing/pending counts.
# Documented in scripts/outside/README.md. Not part of `npm test` (it installs and
# compiles a large project and takes tens of minutes).
#
# Usage: scripts/outside/run.sh <project-dir> [hardhat|anvil|dualnet ...]
#   <project-dir>  a checkout of https://github.com/Uniswap/v3-core at $V3_CORE_COMMIT;
#                  cloned there if it does not exist (needs access to github.com).
#   targets        which runs to do (default: hardhat anvil dualnet, in that order);
#                  also hardhat-istanbul: Hardhat's network in process with hardfork
#                  istanbul, the chain's; and hardhat-node: the same network served over
#                  HTTP by `hardhat node` (istanbul), the reference for dualnet (same
#                  transport, same hardfork).
# Environment (all optional):
#   OUTSIDE_WORK      where solc-js, Anvil, the logs and the summary go (default /tmp/outside-work)
#   DUALNET_DIR       the dualnet checkout whose CLI runs (default: this repository)
#   DUALNET_FLAGS     extra CLI flags (default: --block-context ethereum, when the CLI has it)
#   ANVIL_HARDFORK    Anvil's --hardfork (default istanbul, the chain's)
#   OUTSIDE_MOCHA_TIMEOUT  mocha's per-test timeout in ms for every run (default 300000)
#   OUTSIDE_PARALLEL  1: run the targets at the same time (each on its own server and log)
#   OUTSIDE_TESTS     test files to run instead of the whole suite (e.g. test/UniswapV3Factory.spec.ts)
set -euo pipefail

V3_CORE_COMMIT=d8b1c635c275d2a9450bd6a78f3fa2484fef73eb
SOLC_VERSION=0.7.6
ANVIL_VERSION=1.7.1
YARN=yarn@1.22.22

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONFIG="$HERE/hardhat.outside.config.ts"
DUALNET_DIR="${DUALNET_DIR:-$(cd "$HERE/../.." && pwd)}"
WORK="${OUTSIDE_WORK:-/tmp/outside-work}"
ANVIL_HARDFORK="${ANVIL_HARDFORK:-istanbul}"
export OUTSIDE_MOCHA_TIMEOUT="${OUTSIDE_MOCHA_TIMEOUT:-300000}"

[ $# -ge 1 ] || { echo "usage: $0 <project-dir> [hardhat|anvil|dualnet ...]" >&2; exit 2; }
PROJECT="$1"; shift
TARGETS=("${@:-hardhat anvil dualnet}")
TARGETS=(${TARGETS[*]})
for t in "${TARGETS[@]}"; do
  case "$t" in hardhat|hardhat-istanbul|hardhat-node|anvil|dualnet) ;; *) echo "unknown target '$t' (hardhat, hardhat-istanbul, hardhat-node, anvil or dualnet)" >&2; exit 2 ;; esac
done
mkdir -p "$WORK"
log() { echo "[outside] $*" >&2; }

# 1. The checkout.
if [ ! -e "$PROJECT/package.json" ]; then
  log "cloning Uniswap/v3-core at $V3_CORE_COMMIT into $PROJECT"
  git clone --quiet https://github.com/Uniswap/v3-core "$PROJECT"
  git -C "$PROJECT" checkout --quiet "$V3_CORE_COMMIT"
fi
PROJECT="$(cd "$PROJECT" && pwd)"
if [ -d "$PROJECT/.git" ]; then
  head="$(git -C "$PROJECT" rev-parse HEAD)"
  [ "$head" = "$V3_CORE_COMMIT" ] || log "warning: $PROJECT is at $head, the figures in the README are for $V3_CORE_COMMIT"
fi

# 2. Dependencies, from the project's yarn.lock. One change, to installing only: a transitive
# dependency (eth-sig-util 1.4.2, under ganache-core) names ethereumjs-abi by a GitHub URL;
# the lock entry is pointed at the same version (0.6.8) on the npm registry, so that the
# install needs the registry alone. `git checkout yarn.lock` undoes it.
if [ ! -d "$PROJECT/node_modules/hardhat" ]; then
  python3 - "$PROJECT/yarn.lock" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
s = s.replace('    ethereumjs-abi "git+https://github.com/ethereumjs/ethereumjs-abi.git"\n', '    ethereumjs-abi "0.6.8"\n')
s = re.sub(r'\n"ethereumjs-abi@git\+https://github\.com/ethereumjs/ethereumjs-abi\.git":\n(  .*\n)+', '\n', s)
open(p, 'w').write(s)
PY
  log "installing the project's dependencies (yarn.lock, $YARN)"
  (cd "$PROJECT" && npx --yes "$YARN" install --frozen-lockfile --ignore-engines --registry https://registry.npmjs.org/ >"$WORK/install.log" 2>&1) \
    || { tail -20 "$WORK/install.log" >&2; exit 1; }
fi

# 3. solc-js and Anvil from npm.
if [ ! -f "$WORK/solc/node_modules/solc/soljson.js" ]; then
  log "installing solc@$SOLC_VERSION (solc-js)"
  mkdir -p "$WORK/solc" && (cd "$WORK/solc" && { [ -f package.json ] || npm init -y >/dev/null; } && npm i --no-audit --no-fund "solc@$SOLC_VERSION" >/dev/null 2>&1)
fi
export OUTSIDE_PROJECT="$PROJECT" OUTSIDE_SOLCJS="$WORK/solc/node_modules/solc/soljson.js"
ANVIL="$WORK/anvil/node_modules/.bin/anvil"
if [[ " ${TARGETS[*]} " == *" anvil "* ]] && [ ! -x "$ANVIL" ]; then
  log "installing @foundry-rs/anvil@$ANVIL_VERSION"
  mkdir -p "$WORK/anvil" && (cd "$WORK/anvil" && { [ -f package.json ] || npm init -y >/dev/null; } && npm i --no-audit --no-fund "@foundry-rs/anvil@$ANVIL_VERSION" >/dev/null 2>&1)
fi

hh() { (cd "$PROJECT" && npx hardhat --config "$CONFIG" "$@"); }

# 4. Compile once (solc-js takes about a minute); every run reuses the artifacts.
log "compiling with solc-js $SOLC_VERSION"
hh compile >"$WORK/compile.log" 2>&1 || { tail -30 "$WORK/compile.log" >&2; exit 1; }

# free_port, wait_rpc
source "$HERE/rpc.sh"
# Each server runs in its own process group (setsid), stopped as a whole (npx and tsx
# fork). Its group id is kept in $WORK/servers/ until it is stopped, so that an
# interrupted run (Ctrl-C, an error) stops the servers it started, and only those.
rm -rf "$WORK/servers"; mkdir -p "$WORK/servers"
started_server() { echo "$1" >"$WORK/servers/$1"; }
stop_server() { kill -- "-$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; rm -f "$WORK/servers/$1"; }
stop_all() { for f in "$WORK"/servers/*; do [ -e "$f" ] && stop_server "$(cat "$f")"; done; return 0; }
trap stop_all EXIT

# Runs the suite on one target; the log is $WORK/<target>.log.
run_suite() {
  local target="$1" network="$2" started=$SECONDS
  log "running the suite on $target"
  # shellcheck disable=SC2086
  if [ -n "$network" ]; then OUTSIDE_HARDHAT_HARDFORK= hh test --no-compile --network "$network" ${OUTSIDE_TESTS-} >"$WORK/$target.log" 2>&1 || true
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
      (cd "$PROJECT" && OUTSIDE_HARDHAT_HARDFORK=istanbul exec setsid npx hardhat --config "$CONFIG" node --port "$port") >"$WORK/hardhat-node.server.log" 2>&1 &
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
      local flags="${DUALNET_FLAGS-}"
      if [ -z "${DUALNET_FLAGS+x}" ] && (cd "$DUALNET_DIR" && npx tsx src/cli.ts --help) 2>/dev/null | grep -q -- '--block-context'; then
        flags="--block-context ethereum"
      fi
      echo "$(git -C "$DUALNET_DIR" rev-parse --short HEAD 2>/dev/null || echo '?') $flags" >"$WORK/dualnet.version"
      port="$(free_port)"
      # shellcheck disable=SC2086
      (cd "$DUALNET_DIR" && exec setsid npx tsx src/cli.ts --rpcport "$port" --quiet $flags) >"$WORK/dualnet.server.log" 2>&1 &
      pid=$!; started_server "$pid"
      wait_rpc "http://127.0.0.1:$port" || { log "dualnet did not start"; tail "$WORK/dualnet.server.log" >&2; stop_server "$pid"; return 1; }
      DUALNET_URL="http://127.0.0.1:$port" run_suite dualnet dualnet
      stop_server "$pid" ;;
  esac
}

if [ "${OUTSIDE_PARALLEL:-0}" = 1 ]; then
  jobs_=()
  for target in "${TARGETS[@]}"; do run_target "$target" & jobs_+=($!); done
  for j in "${jobs_[@]}"; do wait "$j" || true; done
else
  for target in "${TARGETS[@]}"; do run_target "$target" || true; done
fi

# 5. The table (also in $WORK/summary.md) and each run's failing tests.
reference=()
[[ " ${TARGETS[*]} " == *" hardhat-node "* ]] && reference=(--reference hardhat-node)
node "$HERE/summary.mjs" "$WORK" "${TARGETS[@]}" "${reference[@]}" | tee "$WORK/summary.md"
