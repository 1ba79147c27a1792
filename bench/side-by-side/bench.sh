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
#   MODES='gemini-stream-paced' bench/side-by-side/bench.sh   # paced streams: 500 conns, 20 events 25 ms apart
#   TARGETS=gateway MODES='gemini-stream-paced responses-stream-paced messages-stream-paced' bench/side-by-side/bench.sh
#
# Two gateways in the same rounds (target gateway-b, interleaved with gateway like any other
# target; lib/ratios.mjs prints gateway-b / gateway), a setting on and off:
#   TARGETS='gateway gateway-b' GATEWAY_B_CONFIG_EXTRA='logs: { enabled: false }' ROUNDS=3 MODES='gemini gemini-stream' bench/side-by-side/bench.sh
# or one commit against another (a git worktree at the other commit; without node_modules of its
# own it gets a symlink to this checkout's when the lock files match, else `npm ci`):
#   git worktree add /tmp/gateway-before <commit>
#   TARGETS='gateway gateway-b' GATEWAY_B_DIR=/tmp/gateway-before ROUNDS=3 MODES='gemini gemini-stream' bench/side-by-side/bench.sh
# gateway-b takes only GATEWAY_B_DIR, GATEWAY_B_CONFIG_EXTRA and GATEWAY_B_ENV, nothing of
# GATEWAY_CONFIG_EXTRA or GATEWAY_ENV.
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
export MODES=${MODES:-"gemini gemini-stream chat chat-stream"}
export ROUNDS=${ROUNDS:-2}
export TARGETS=${TARGETS:-"baseline baseline-fastify portkey gateway"}
# The setup's output is taken first so that its failure stops the run (eval "$(…)" would not).
setup=$(./gateway-setup.sh gateway); eval "$setup"
[[ -n ${GATEWAY_ENV:-} ]] && export GATEWAY_CMD="$GATEWAY_ENV $GATEWAY_CMD"
if [[ " $TARGETS " == *" gateway-b "* ]]; then
  # The same checkout is built once: the first setup built it.
  same=0; [[ $(cd "${GATEWAY_B_DIR:-$GATEWAY_DIR}" && pwd -P) == "$(cd "$GATEWAY_DIR" && pwd -P)" ]] && same=1
  if [[ $same == 1 ]]; then setup=$(BENCH_NO_BUILD=1 ./gateway-setup.sh gateway-b); else setup=$(./gateway-setup.sh gateway-b); fi
  eval "$setup"
  [[ -n ${GATEWAY_B_ENV:-} ]] && export GATEWAY_B_CMD="$GATEWAY_B_ENV $GATEWAY_B_CMD"
fi
export OUT=${OUT:-$BENCH_HOME/results/$(date +%Y%m%d-%H%M%S)}
./run.sh
node lib/ratios.mjs "$OUT"
