#!/usr/bin/env bash
# A CPU profile of the gateway under the harness's load: the bench config (gateway-setup.sh), the
# fake upstream and wrk on the harness core, the gateway alone on the target core under
# `node --cpu-prof`, then lib/profile-summary.mjs prints where the samples went (self time by
# function and by file, and inclusive time of the functions that hold the most).
# Usage:
#   bench/side-by-side/profile.sh                                   # gemini-stream, 50 connections, 10 s
#   MODE=gemini bench/side-by-side/profile.sh
#   MODE=messages-stream PACED=1 bench/side-by-side/profile.sh      # 500 connections, 20 events 25 ms apart
# Knobs: MODE (gemini | gemini-stream | chat | chat-stream | responses[-stream] | messages[-stream]),
#   SECONDS_RUN (10), CONNS (50, or 500 paced), PACED (0), CHUNKS (20), CHUNK_DELAY_MS (0, or 25 paced),
#   GATEWAY_DIR (this checkout, built), GATEWAY_CONFIG_EXTRA, TOP (25), TARGET_CPUS (1), HARNESS_CPUS (0).
# The profile stays in the printed directory (gateway/*.cpuprofile) for a viewer.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$BENCH/../.." && pwd -P)
DIR=${GATEWAY_DIR:-$ROOT}
MODE=${MODE:-gemini-stream}; PACED=${PACED:-0}; SECONDS_RUN=${SECONDS_RUN:-10}
if [[ $PACED == 1 ]]; then CONNS=${CONNS:-500}; CHUNK_DELAY_MS=${CHUNK_DELAY_MS:-25}; TIMEOUT=10
else CONNS=${CONNS:-50}; CHUNK_DELAY_MS=${CHUNK_DELAY_MS:-0}; TIMEOUT=4; fi
CHUNKS=${CHUNKS:-20}
TARGET_CPUS=${TARGET_CPUS:-1}; HARNESS_CPUS=${HARNESS_CPUS:-0}; UPSTREAM_PORT=${UPSTREAM_PORT:-18080}; PORT=${GATEWAY_PORT:-18100}
. "$BENCH/lib/mode-request.sh"
mode_request "$MODE" || { echo "profile.sh: MODE is gemini, chat, responses or messages, each with or without -stream, not '$MODE'" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk not found (run ./setup.sh)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/profile.XXXXXX)
. "$BENCH/lib/measurement.sh"
start_upstream
curl -fsS -X POST "http://127.0.0.1:$UPSTREAM_PORT/__config?chunks=$CHUNKS&chunk_delay_ms=$CHUNK_DELAY_MS" >/dev/null
start_gateway "$DIR" "$PORT" --cpu-prof --cpu-prof-dir="$OUT/gateway"
BODY_FILE=$BODY EXTRA_HEADERS="$GATEWAY_HEADERS" taskset -c "$HARNESS_CPUS" wrk -t1 -c"$CONNS" --latency -d"${SECONDS_RUN}s" --timeout "${TIMEOUT}s" \
  -s "$BENCH/lib/wrk-post.lua" "http://127.0.0.1:$PORT$REQUEST_PATH" >"$OUT/wrk.txt"
grep -E 'requests in|Non-2xx|Socket errors|Latency  | 50%| 99%' "$OUT/wrk.txt" || true
stop_gateway
echo "profile: $(ls "$OUT"/gateway/*.cpuprofile)"
node "$BENCH/lib/profile-summary.mjs" "$OUT"/gateway/*.cpuprofile "${TOP:-25}"
