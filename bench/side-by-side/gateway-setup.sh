#!/usr/bin/env bash
# Prepares one gateway target for run.sh: builds its checkout if needed, writes a config
# (SQLite, one user, a gx channel pointed at the fake upstream, a limited-quota token so every
# request reserves and settles), mints one API key, and prints the variables run.sh needs.
# Usage:
#   eval "$(./gateway-setup.sh)"; MODES="gemini gemini-stream" TARGETS="baseline baseline-fastify portkey gateway" ./run.sh
#   eval "$(./gateway-setup.sh gateway-b)"   # the second gateway target, GATEWAY_B_* variables
# (bench.sh does all of this.)
#   gateway    the checkout GATEWAY_DIR; GATEWAY_CONFIG_EXTRA is YAML appended to its config, for
#              a setting to compare, e.g. GATEWAY_CONFIG_EXTRA='logs: { enabled: false }';
#              work dir GATEWAY_WORK, port GATEWAY_PORT (18100).
#   gateway-b  the checkout GATEWAY_B_DIR (default GATEWAY_DIR), YAML GATEWAY_B_CONFIG_EXTRA, work
#              dir GATEWAY_B_WORK, port GATEWAY_B_PORT (18101); its own database, user and key. It
#              inherits nothing from the gateway target's settings, so the pair differs only in
#              what the GATEWAY_B_* variables say.
# A checkout without node_modules (a fresh git worktree) gets a symlink to GATEWAY_DIR's when
# both lock files are the same, else `npm ci`.
set -euo pipefail
TARGET=${1:-gateway}
GATEWAY_DIR=${GATEWAY_DIR:-$(git rev-parse --show-toplevel)}
case $TARGET in
  gateway)
    DIR=$GATEWAY_DIR; PREFIX=GATEWAY; EXTRA=${GATEWAY_CONFIG_EXTRA:-}
    WORK=${GATEWAY_WORK:-/tmp/model-gateway-side-by-side}; PORT=${GATEWAY_PORT:-18100} ;;
  gateway-b)
    DIR=${GATEWAY_B_DIR:-$GATEWAY_DIR}; PREFIX=GATEWAY_B; EXTRA=${GATEWAY_B_CONFIG_EXTRA:-}
    WORK=${GATEWAY_B_WORK:-/tmp/model-gateway-side-by-side-b}; PORT=${GATEWAY_B_PORT:-18101} ;;
  *) echo "gateway-setup.sh: unknown target '$TARGET' (gateway or gateway-b)" >&2; exit 2 ;;
esac
[[ -f $DIR/package.json ]] || { echo "gateway-setup.sh: $DIR (for $TARGET) is not a gateway checkout: no package.json" >&2; exit 2; }
DIR=$(cd "$DIR" && pwd -P)
cd "$(dirname "$0")"
UPSTREAM_PORT=${UPSTREAM_PORT:-18080}
# Another gateway on this port may be running from this very work dir (a second harness on the
# machine): deleting its database under it, or stopping it below, is not ours to do.
if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/"; then
  echo "gateway-setup.sh: port $PORT already answers (another gateway, perhaps from $WORK); stop it, or give $TARGET another ${PREFIX}_PORT and ${PREFIX}_WORK" >&2; exit 2
fi
rm -rf "$WORK"; mkdir -p "$WORK"
# The gateway's own command: package.json's bin "model-gateway", built first (BENCH_NO_BUILD=1 skips).
if [[ -L $DIR/node_modules && ! -e $DIR/node_modules ]]; then
  echo "gateway-setup.sh: $DIR/node_modules is a symlink to nothing ($(readlink "$DIR/node_modules")); fix or remove it" >&2; exit 2
fi
if [[ ! -e $DIR/node_modules ]]; then
  if [[ $DIR != "$(cd "$GATEWAY_DIR" && pwd -P)" && -d $GATEWAY_DIR/node_modules ]] && cmp -s "$DIR/package-lock.json" "$GATEWAY_DIR/package-lock.json"; then
    # Same lock file, same dependencies: share them rather than install a second copy.
    ln -s "$(cd "$GATEWAY_DIR/node_modules" && pwd -P)" "$DIR/node_modules"
    echo "gateway-setup.sh: $DIR/node_modules -> $GATEWAY_DIR/node_modules (same package-lock.json)" >&2
  else
    (cd "$DIR" && npm ci >&2)
  fi
fi
[[ ${BENCH_NO_BUILD:-0} == 1 ]] || (cd "$DIR" && npm run build >&2)
BIN=$(cd "$DIR" && node -p "const b = require('./package.json').bin; typeof b === 'string' ? b : b['model-gateway']")
LOGIN=bench-login-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
cat >"$WORK/gateway.yaml" <<YAML
server: { host: 127.0.0.1, port: $PORT }
storage: { driver: sqlite, path: $WORK/data/gateway.sqlite, data_dir: $WORK/data }
users: [ { id: 1, username: bench, login_token: "$LOGIN" } ]
groups: { default: { ratio: 1 } }
pricing:
  gx-2.5-pro: { input_per_mtok: 1.25, output_per_mtok: 10 }
  gemini-2.0-flash: { input_per_mtok: 0.1, output_per_mtok: 0.4 }
  gpt-4o-mini: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
providers:
  - name: gx-bench
    plugin: gx
    base_url: \${GEMINI_BASE_URL:-http://127.0.0.1:$UPSTREAM_PORT}
    api_key: upstream-key
    models: [gx-2.5-pro, gemini-2.0-flash]
  - name: gp-bench
    plugin: gp
    base_url: \${UPSTREAM_URL:-http://127.0.0.1:$UPSTREAM_PORT}
    api_key: upstream-key
    models: [gpt-4o-mini]
$EXTRA
YAML
# Started for minting only, and stopped by its own pid whatever happens (the exec keeps the pid).
(cd "$DIR" && exec node "$BIN" start --config "$WORK/gateway.yaml" >"$WORK/mint.log" 2>&1 </dev/null) &
MINT_PID=$!
alive() { local st; st=$(ps -o stat= -p "$MINT_PID" 2>/dev/null) && [[ $st != Z* ]]; }
stop_mint() { kill "$MINT_PID" 2>/dev/null || return 0; for _ in $(seq 1 50); do kill -0 "$MINT_PID" 2>/dev/null || break; sleep 0.1; done; }
trap stop_mint EXIT
for _ in $(seq 1 100); do
  alive || { echo "gateway-setup.sh: $TARGET exited at start; see $WORK/mint.log" >&2; tail -5 "$WORK/mint.log" >&2; exit 1; }
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1
done
api() { curl -fsS -H "Authorization: Bearer $LOGIN" -H 'content-type: application/json' "$@"; }
# A large but limited quota: every request reserves and settles against it.
api -X POST "http://127.0.0.1:$PORT/api/token/" -d '{"name":"bench","remain_quota":50000000000,"unlimited_quota":false,"expired_time":-1}' >/dev/null
id=$(api "http://127.0.0.1:$PORT/api/token/" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.items[0].id))')
key=$(api -X POST "http://127.0.0.1:$PORT/api/token/$id/key" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.key))')
stop_mint
[[ -n $key ]] || { echo "gateway-setup.sh: no API key minted for $TARGET; see $WORK/mint.log" >&2; exit 1; }
cat <<OUT
export ${PREFIX}_CWD='$DIR'
export ${PREFIX}_CMD='exec node $BIN start --config $WORK/gateway.yaml'
export ${PREFIX}_URL='http://127.0.0.1:$PORT'
export ${PREFIX}_HEADERS='Authorization: Bearer sk-$key'
export ${PREFIX}_GEMINI_MODEL='gx-2.5-pro'
export READY_PATH=/healthz
OUT
