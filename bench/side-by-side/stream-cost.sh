#!/usr/bin/env bash
# What a stream costs beside a plain answer, in one gateway process: CPU per request of several
# cases (a harness mode and the number of events the fake upstream streams), measured in short
# runs that take turns (case 1, case 2, ..., then again), so the machine's drift reaches every
# case alike. Each figure is split between the main thread (what `node --cpu-prof` sees) and
# the process's other threads (V8's helpers: parallel scavenges, concurrent marking, the
# optimizing compiler), which a CPU profile of the main thread does not show.
# Usage:
#   bench/side-by-side/stream-cost.sh      # gemini, and gemini-stream with 1 and with 20 events
#   CASES='chat:20 chat-stream:1 chat-stream:20' bench/side-by-side/stream-cost.sh
#   PROFILE=1 bench/side-by-side/stream-cost.sh   # also a CPU profile, split by case (lib/profile-windows.mjs)
# Knobs: CASES (MODE:EVENTS ..., modes as paired.sh takes them), REPS (4), SECONDS_EACH (3),
#   CONNS (50), GATEWAY_DIR (this checkout, built), GATEWAY_CONFIG_EXTRA, TARGET_CPUS (1),
#   HARNESS_CPUS (0), UPSTREAM_PORT (18080), GATEWAY_PORT (18100), PROFILE (0; 1: the gateway runs
#   under `node --cpu-prof`, which slows it, and the main thread's time per request of each case
#   and the functions that differ most from the first case are printed; TOP (30) of them).
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$BENCH/../.." && pwd -P)
DIR=${GATEWAY_DIR:-$ROOT}
CASES=${CASES:-"gemini:20 gemini-stream:1 gemini-stream:20"}; REPS=${REPS:-4}; SECONDS_EACH=${SECONDS_EACH:-3}; CONNS=${CONNS:-50}
TARGET_CPUS=${TARGET_CPUS:-1}; HARNESS_CPUS=${HARNESS_CPUS:-0}; UPSTREAM_PORT=${UPSTREAM_PORT:-18080}; PORT=${GATEWAY_PORT:-18100}
. "$BENCH/lib/mode-request.sh"
for c in $CASES; do
  mode_request "${c%%:*}" && [[ $c == *:* && ${c#*:} =~ ^[1-9][0-9]*$ ]] || { echo "stream-cost.sh: a case is MODE:EVENTS (gemini-stream:20), not '$c'" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "wrk not found (run ./setup.sh)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/stream-cost.XXXXXX)
. "$BENCH/lib/measurement.sh"
start_upstream
PROFILE=${PROFILE:-0}; PROFILE_FLAGS=()
[[ $PROFILE == 1 ]] && PROFILE_FLAGS=(--cpu-prof --cpu-prof-dir="$OUT/profile")
start_gateway "$DIR" "$PORT" "${PROFILE_FLAGS[@]}"

# One line per thread: its id and its user + system clock ticks.
thread_ticks() { local t; for t in /proc/"$GW"/task/*; do awk -v id="${t##*/}" '{ print id, $14 + $15 }' "$t/stat" 2>/dev/null || true; done; }
uptime_seconds() { awk '{ print $1 }' /proc/uptime; } # the clock of a CPU profile's timestamps
run() { # mode events [turn] -> "main other" microseconds of CPU per request; a turn is written to $OUT/windows
  mode_request "$1"
  curl -fsS -X POST "http://127.0.0.1:$UPSTREAM_PORT/__config?chunks=$2" >/dev/null
  local start; start=$(uptime_seconds)
  thread_ticks >"$OUT/before"
  BODY_FILE=$BODY EXTRA_HEADERS="$GATEWAY_HEADERS" taskset -c "$HARNESS_CPUS" wrk -t1 -c"$CONNS" -d"${SECONDS_EACH}s" \
    -s "$BENCH/lib/wrk-post.lua" "http://127.0.0.1:$PORT$REQUEST_PATH" >"$OUT/wrk.txt"
  thread_ticks >"$OUT/after"
  local end; end=$(uptime_seconds)
  grep -q 'Non-2xx' "$OUT/wrk.txt" && { echo "stream-cost.sh: non-2xx answers in $1:$2 ($OUT/wrk.txt)" >&2; exit 1; }
  local requests; requests=$(grep -oP '^\s*\K\d+(?= requests in)' "$OUT/wrk.txt")
  [[ -n ${3:-} ]] && echo "$1:$2 $start $end $requests" >>"$OUT/windows"
  # Threads that ended between the readings count from 0 or to nothing: V8's helpers live as long as the process.
  awk -v main="$GW" -v requests="$requests" -v hz="$(getconf CLK_TCK)" '
    NR == FNR { before[$1] = $2; next }
    { d = $2 - before[$1]; if ($1 == main) m += d; else o += d }
    END { printf "%d %d\n", m * 1e6 / hz / requests, o * 1e6 / hz / requests }' "$OUT/before" "$OUT/after"
}
for c in $CASES; do run "${c%%:*}" "${c#*:}" >/dev/null; done # warm-up
declare -A MAIN OTHER
for _ in $(seq "$REPS"); do
  for c in $CASES; do
    read -r m o <<<"$(run "${c%%:*}" "${c#*:}" turn)" || true
    [[ -n ${o:-} ]] || exit 1 # run said why
    MAIN[$c]+="$m "; OTHER[$c]+="$o "
  done
done
echo "$REPS turns of ${SECONDS_EACH} s per case at $CONNS connections; us CPU/request, main thread + other threads"
for c in $CASES; do
  read -ra m <<<"${MAIN[$c]}"; read -ra o <<<"${OTHER[$c]}"
  totals=(); for i in "${!m[@]}"; do totals+=($((m[i] + o[i]))); done
  echo "$c: total ${totals[*]} (median $(median "${totals[@]}")); main median $(median "${m[@]}"), other threads median $(median "${o[@]}")"
done
if [[ $PROFILE == 1 ]]; then
  stop_gateway
  echo; echo "profile: $(ls "$OUT"/profile/*.cpuprofile)"
  node "$BENCH/lib/profile-windows.mjs" "$OUT"/profile/*.cpuprofile "$OUT/windows" "${TOP:-30}"
fi
