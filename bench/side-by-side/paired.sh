#!/usr/bin/env bash
# Two gateways side by side, alternated every few seconds: the paired comparison for a change
# smaller than the machine's drift. run.sh interleaves whole targets (a minute apart); on a
# shared machine whose speed moves by a quarter within minutes, a 5% difference drowns in that.
# Here both gateways stay up on the target core (the idle one waits), wrk alternates between
# them in short runs (A B, then B A, ...), and each pair's ratio of CPU per request is taken
# while the machine is in one state; the median of the pairs is the figure. On a noisy machine
# 10-12 pairs still leave +-10-15% (null tests of one checkout against itself gave 0.99-1.18 in
# one hour): run the null test beside a claim.
# Usage:
#   bench/side-by-side/paired.sh                          # this checkout against itself (a null test)
#   PAIRED_B_CONFIG_EXTRA='logs: { enabled: false }' bench/side-by-side/paired.sh
#   PAIRED_B_DIR=/path/to/a/worktree MODE=gemini-stream bench/side-by-side/paired.sh
# Knobs: PAIRED_A_DIR (this checkout), PAIRED_A_CONFIG_EXTRA, PAIRED_B_DIR (= A), PAIRED_B_CONFIG_EXTRA,
#   MODE (gemini | gemini-stream: the chat-completions request on the gx channel; chat | chat-stream:
#   on the gp channel; responses[-stream] | messages[-stream]: those formats on the gx channel), PAIRS (24),
#   SECONDS_EACH (2), CONNS (50), TARGET_CPUS (1), HARNESS_CPUS (0), UPSTREAM_PORT (18080),
#   PAIRED_A_PORT (18100), PAIRED_B_PORT (18101). Both checkouts must be built (BENCH_NO_BUILD=0 builds).
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$BENCH/../.." && pwd -P)
A_DIR=${PAIRED_A_DIR:-$ROOT}; B_DIR=${PAIRED_B_DIR:-$A_DIR}
A_EXTRA=${PAIRED_A_CONFIG_EXTRA:-}; B_EXTRA=${PAIRED_B_CONFIG_EXTRA:-}
MODE=${MODE:-gemini}; PAIRS=${PAIRS:-24}; SECONDS_EACH=${SECONDS_EACH:-2}; CONNS=${CONNS:-50}
TARGET_CPUS=${TARGET_CPUS:-1}; HARNESS_CPUS=${HARNESS_CPUS:-0}; UPSTREAM_PORT=${UPSTREAM_PORT:-18080}
A_PORT=${PAIRED_A_PORT:-18100}; B_PORT=${PAIRED_B_PORT:-18101}
. "$BENCH/lib/mode-request.sh"
mode_request "$MODE" || { echo "paired.sh: MODE is gemini, chat, responses or messages, each with or without -stream, not '$MODE'" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk not found (run ./setup.sh)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/paired.XXXXXX)
. "$BENCH/lib/measurement.sh"
start_upstream

start() { # label dir extra port -> "pid headers"
  local setup bin
  setup=$(cd "$BENCH" && GATEWAY_DIR=$2 GATEWAY_CONFIG_EXTRA="$3" GATEWAY_WORK="$OUT/$1" GATEWAY_PORT=$4 UPSTREAM_PORT=$UPSTREAM_PORT \
    BENCH_NO_BUILD=${BENCH_NO_BUILD:-1} ./gateway-setup.sh 2>"$OUT/$1-setup.log")
  eval "$setup"
  bin=$(cd "$2" && node -p "require('./package.json').bin['model-gateway']")
  (cd "$2" && exec taskset -c "$TARGET_CPUS" node "$bin" start --config "$OUT/$1/gateway.yaml" >"$OUT/$1.log" 2>&1) &
  echo "$! $GATEWAY_HEADERS"
}
read -r A_PID A_HEADERS <<<"$(start a "$A_DIR" "$A_EXTRA" "$A_PORT")"; PIDS+=("$A_PID")
read -r B_PID B_HEADERS <<<"$(start b "$B_DIR" "$B_EXTRA" "$B_PORT")"; PIDS+=("$B_PID")
for port in "$A_PORT" "$B_PORT"; do
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
done

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # user + system, in clock ticks
run() { # port pid headers -> microseconds of CPU per request
  local before after requests
  before=$(ticks "$2")
  BODY_FILE=$BODY EXTRA_HEADERS="$3" taskset -c "$HARNESS_CPUS" wrk -t1 -c"$CONNS" -d"${SECONDS_EACH}s" \
    -s "$BENCH/lib/wrk-post.lua" "http://127.0.0.1:$1$REQUEST_PATH" >"$OUT/wrk.txt"
  after=$(ticks "$2")
  requests=$(grep -oP '^\s*\K\d+(?= requests in)' "$OUT/wrk.txt")
  grep -q 'Non-2xx' "$OUT/wrk.txt" && { echo "paired.sh: non-2xx answers from port $1 ($OUT/wrk.txt)" >&2; exit 1; }
  echo $(( (after - before) * 1000000 / $(getconf CLK_TCK) / requests ))
}
run "$A_PORT" "$A_PID" "$A_HEADERS" >/dev/null; run "$B_PORT" "$B_PID" "$B_HEADERS" >/dev/null # warm-up
A=(); B=(); RATIOS=()
for i in $(seq "$PAIRS"); do
  if (( i % 2 )); then a=$(run "$A_PORT" "$A_PID" "$A_HEADERS"); b=$(run "$B_PORT" "$B_PID" "$B_HEADERS")
  else b=$(run "$B_PORT" "$B_PID" "$B_HEADERS"); a=$(run "$A_PORT" "$A_PID" "$A_HEADERS"); fi
  A+=("$a"); B+=("$b"); RATIOS+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
done
echo "$MODE, $PAIRS pairs of ${SECONDS_EACH} s at $CONNS connections"
echo "A us CPU/request: ${A[*]} (median $(median "${A[@]}"))"
echo "B us CPU/request: ${B[*]} (median $(median "${B[@]}"))"
echo "A/B per pair: ${RATIOS[*]}"
echo "A/B median of the pairs: $(median "${RATIOS[@]}")"
