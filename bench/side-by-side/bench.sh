#!/usr/bin/env bash
# The side-by-side benchmark of the gateway, as the project is judged: the gx translation
# path (modes gemini, gemini-stream) and the OpenAI-format pass-through (chat, chat-stream),
# the same load against a bare node:http+undici proxy, a bare fastify proxy, the Portkey
# gateway and this gateway, each pinned alone to one core, in interleaved rounds.
#
#   bench/side-by-side/bench.sh              # from the project root: ~11 min (ROUNDS=2, four modes)
#   ROUNDS=1 MODES='gemini gemini-stream' bench/side-by-side/bench.sh   # a quick look (~3 min)
#   GATEWAY_ENV='LOG_LEVEL=warn' bench/side-by-side/bench.sh   # extra environment for the gateway
#   TARGETS=gateway MODES='gemini responses messages' bench/side-by-side/bench.sh   # the format translators
#
# The harness is copied to BENCH_HOME (default ~/.cache/model-gateway-side-by-side) and
# installed there once (wrk from Debian, its npm deps, Portkey). The gateway is the checkout
# this harness belongs to (GATEWAY_DIR to name another, e.g. a git worktree), built first.
# Results: $BENCH_HOME/results/<timestamp>/table.md; the table is printed at the end.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
export GATEWAY_DIR=${GATEWAY_DIR:-$(cd "$SRC/../.." && pwd)}
BENCH_HOME=${BENCH_HOME:-$HOME/.cache/model-gateway-side-by-side}
mkdir -p "$BENCH_HOME"
# Copy the harness (not node_modules/peers/results) so a read-only checkout still works.
(cd "$SRC" && tar cf - --exclude=node_modules --exclude=peers --exclude=results .) | (cd "$BENCH_HOME" && tar xf -)
cd "$BENCH_HOME"
if ! command -v wrk >/dev/null || [[ ! -d node_modules || ! -f peers/portkey/node_modules/@portkey-ai/gateway/package.json ]]; then
  ./setup.sh >&2
fi
eval "$(./gateway-setup.sh)"
[[ -n ${GATEWAY_ENV:-} ]] && export GATEWAY_CMD="$GATEWAY_ENV $GATEWAY_CMD"
export MODES=${MODES:-"gemini gemini-stream chat chat-stream"}
export ROUNDS=${ROUNDS:-2}
export TARGETS=${TARGETS:-"baseline baseline-fastify portkey gateway"}
export OUT=${OUT:-$BENCH_HOME/results/$(date +%Y%m%d-%H%M%S)}
./run.sh
node lib/ratios.mjs "$OUT"
