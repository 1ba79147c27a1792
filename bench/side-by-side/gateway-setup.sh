#!/usr/bin/env bash
# Prepares the gateway (the checkout in GATEWAY_DIR; bench.sh sets it) for run.sh:
# builds it if needed, writes a config (SQLite, one user, a gx channel pointed at the fake
# upstream, a limited-quota token so every request reserves and settles), mints one API key,
# and prints the variables run.sh needs. Usage:
#   eval "$(./gateway-setup.sh)"; MODES="gemini gemini-stream" TARGETS="baseline baseline-fastify portkey gateway" ./run.sh
# (bench.sh does all of this.) GATEWAY_CONFIG_EXTRA is YAML appended to the config, for a
# setting to compare, e.g. GATEWAY_CONFIG_EXTRA='logs: { enabled: false }'.
set -euo pipefail
GATEWAY_DIR=${GATEWAY_DIR:-$(git rev-parse --show-toplevel)}
cd "$(dirname "$0")"
WORK=${GATEWAY_WORK:-/tmp/model-gateway-side-by-side}
PORT=${GATEWAY_PORT:-18100}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080}
rm -rf "$WORK"; mkdir -p "$WORK"
# The gateway's own command: package.json's bin "model-gateway", built first (BENCH_NO_BUILD=1 skips).
[[ -d $GATEWAY_DIR/node_modules ]] || (cd "$GATEWAY_DIR" && npm ci >&2)
[[ ${BENCH_NO_BUILD:-0} == 1 ]] || (cd "$GATEWAY_DIR" && npm run build >&2)
BIN=$(cd "$GATEWAY_DIR" && node -p "const b = require('./package.json').bin; typeof b === 'string' ? b : b['model-gateway']")
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
${GATEWAY_CONFIG_EXTRA:-}
YAML
(cd "$GATEWAY_DIR" && setsid node "$BIN" start --config "$WORK/gateway.yaml" >"$WORK/mint.log" 2>&1 &)
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
api() { curl -fsS -H "Authorization: Bearer $LOGIN" -H 'content-type: application/json' "$@"; }
# A large but limited quota: every request reserves and settles against it.
api -X POST "http://127.0.0.1:$PORT/api/token/" -d '{"name":"bench","remain_quota":50000000000,"unlimited_quota":false,"expired_time":-1}' >/dev/null
id=$(api "http://127.0.0.1:$PORT/api/token/" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.items[0].id))')
key=$(api -X POST "http://127.0.0.1:$PORT/api/token/$id/key" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.key))')
pid=$(ss -ltnp "sport = :$PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
kill "$pid"; for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
cat <<OUT
export GATEWAY_CWD='$GATEWAY_DIR'
export GATEWAY_CMD='exec node $BIN start --config $WORK/gateway.yaml'
export GATEWAY_URL='http://127.0.0.1:$PORT'
export GATEWAY_HEADERS='Authorization: Bearer sk-$key'
export GATEWAY_GEMINI_MODEL='gx-2.5-pro'
export READY_PATH=/healthz
OUT
