#!/usr/bin/env bash
# Side-by-side load test: the same POST load against each target, one target at a time,
# all forwarding to the same fake upstream on 127.0.0.1. Prints a table and writes
# results under $OUT. Stops every process it started (by pid / its own process group).
#
# Targets (TARGETS, space separated, default "direct baseline baseline-fastify portkey gateway"):
#   direct            wrk -> fake upstream (no proxy): the harness ceiling
#   baseline          baseline-proxy.mjs IMPL=undici  (node:http + undici, forwards only)
#   baseline-fastify  baseline-proxy.mjs IMPL=fastify (fastify + @fastify/reply-from)
#   portkey           @portkey-ai/gateway from peers/portkey (run ./setup.sh first)
#   gateway           "our gateway": GATEWAY_CMD (started here) + GATEWAY_URL; skipped when unset
#   gateway-b         a second gateway, measured in the same rounds: GATEWAY_B_CMD + GATEWAY_B_URL
#                     (+ GATEWAY_B_CWD, GATEWAY_B_HEADERS, ...: every GATEWAY_* knob below with
#                     the B_ prefix; the request knobs fall back to the GATEWAY_* ones)
# Modes (MODES, default "chat chat-stream"; also "gemini gemini-stream"):
#   chat / chat-stream        OpenAI /v1/chat/completions, upstream = OpenAI-style
#   gemini / gemini-stream    OpenAI chat in, Gemini-native upstream (translation). direct and
#                             baseline* send the Gemini-native request instead (pass-through).
#   responses / responses-stream, messages / messages-stream
#                             an OpenAI Responses or Anthropic Messages request for the same gx
#                             model (the gateway's format translators, then the gx translation);
#                             direct and baseline* send the Gemini-native request as above. Run
#                             them with TARGETS=gateway: Portkey is not given these formats.
#   <stream mode>-paced       e.g. gemini-stream-paced, responses-stream-paced: the same request
#                             against paced streams, PACED_CHUNKS (20) events PACED_DELAY_MS (25 ms)
#                             apart, at PACED_CONNS (500) connections; wrk's timeout is
#                             PACED_TIMEOUT (default 10x the stream's own length, at least 5 s),
#                             so a timeout is a starved stream, not a slow one. wrk counts a
#                             response later than its timeout as a timeout (and not in the
#                             latencies: max is the slowest one under it), and every 2 s each
#                             request still open past it; it can see none in a run not longer
#                             than the timeout, so keep DURATION above 2x it. The upstream is
#                             switched per mode (POST /__config), so paced and unpaced modes
#                             share a run. Rows record max latency, wrk's timeouts and events per
#                             stream (lib/ratios.mjs: CPU per event); their upstream hits/req read
#                             above 1 (the streams still open when wrk stops).
#
# Knobs: ROUNDS (3; every target is restarted and re-measured each round, targets interleaved,
#   the table shows medians and the min-max spread), DURATION (10 s measured), WARMUP (5 s),
#   CONNS (50), THREADS (1), IDLE_DURATION
#   (3 s at 1 connection, 0 = skip), MAX_REQUESTS (1000000: count cap per wrk run, via a Lua
#   response hook that costs the harness a few % of a core; 0 = off; a capped row is flagged),
#   PIN (1: target on TARGET_CPUS=1, wrk + fake upstream on HARNESS_CPUS=0; 0: no pinning),
#   CHUNKS (20), CHUNK_DELAY_MS (0) (the unpaced modes' stream), STREAM_WRITES (per-chunk),
#   WRK_TIMEOUT (5 s, unpaced modes), OUT (results/<timestamp>).
# Shared-machine guards: before each measured run wait up to QUIET_WAIT (120 s) until the machine
#   is below QUIET_PCT (10% of one core) busy; if CPU outside target/wrk/upstream exceeded
#   OTHER_MAX (15% of one core) during the run, redo it (RETRIES, 2); rows keep the flag.
# Our gateway: GATEWAY_CMD (shell command, run with bash -c in GATEWAY_CWD, default $PWD),
#   GATEWAY_URL (e.g. http://127.0.0.1:8080), GATEWAY_HEADERS (newline-separated
#   "Name: value", default "Authorization: Bearer sk-bench"), GATEWAY_GEMINI_HEADERS,
#   GATEWAY_GEMINI_MODEL (gemini-2.0-flash), GATEWAY_CHAT_PATH (/v1/chat/completions).
#   The command gets UPSTREAM_URL, OPENAI_BASE_URL, GEMINI_BASE_URL pointing at the fake upstream.
set -euo pipefail
cd "$(dirname "$0")"
BENCH=$PWD

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-5}
CONNS=${CONNS:-50}
THREADS=${THREADS:-1}
IDLE_DURATION=${IDLE_DURATION:-3}
MAX_REQUESTS=${MAX_REQUESTS:-1000000}
PIN=${PIN:-1}
QUIET_PCT=${QUIET_PCT:-10}
QUIET_WAIT=${QUIET_WAIT:-120}
OTHER_MAX=${OTHER_MAX:-15}
RETRIES=${RETRIES:-2}
TARGET_CPUS=${TARGET_CPUS:-1}
HARNESS_CPUS=${HARNESS_CPUS:-0}
MODES=${MODES:-"chat chat-stream"}
TARGETS=${TARGETS:-"direct baseline baseline-fastify portkey gateway"}
export CHUNKS=${CHUNKS:-20} CHUNK_DELAY_MS=${CHUNK_DELAY_MS:-0} STREAM_WRITES=${STREAM_WRITES:-per-chunk}
WRK_TIMEOUT=${WRK_TIMEOUT:-5}
PACED_CONNS=${PACED_CONNS:-500}
PACED_CHUNKS=${PACED_CHUNKS:-20}
PACED_DELAY_MS=${PACED_DELAY_MS:-25}
# 10x the stream's own length, at least 5 s (wrk takes whole seconds here).
PACED_TIMEOUT=${PACED_TIMEOUT:-$(awk -v n="$PACED_CHUNKS" -v d="$PACED_DELAY_MS" 'BEGIN { t = 10 * n * d / 1000; t = (t < 5 ? 5 : t); printf "%d", (t == int(t) ? t : int(t) + 1) }')}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080}
BASELINE_PORT=${BASELINE_PORT:-18090}
BASELINE_FASTIFY_PORT=${BASELINE_FASTIFY_PORT:-18091}
PORTKEY_PORT=${PORTKEY_PORT:-18787}
OUT=${OUT:-results/$(date +%Y%m%d-%H%M%S)}
UP=http://127.0.0.1:$UPSTREAM_PORT
PORTKEY_JS=$BENCH/peers/portkey/node_modules/@portkey-ai/gateway/build/start-server.js
GEMINI_MODEL=gemini-2.0-flash

mkdir -p "$OUT/logs" "$OUT/wrk"
RESULTS=$OUT/results.jsonl
: >"$RESULTS"
command -v wrk >/dev/null || { echo "wrk not found (run ./setup.sh)" >&2; exit 1; }
# Every connection is a descriptor in wrk, in the target (twice: client and upstream side) and in
# the fake upstream: take the hard limit, and refuse a run that cannot open them all.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [[ " $MODES " == *"-paced "* ]] && (( DURATION < 2 * PACED_TIMEOUT )); then
  echo "note: DURATION=${DURATION}s is under 2x PACED_TIMEOUT (${PACED_TIMEOUT}s): wrk can count few or no timeouts in such a run" >&2
fi
MAX_CONNS=$CONNS; [[ " $MODES " == *"-paced "* ]] && (( PACED_CONNS > MAX_CONNS )) && MAX_CONNS=$PACED_CONNS
if [[ $(ulimit -n) != unlimited ]] && (( $(ulimit -n) < 2 * MAX_CONNS + 256 )); then
  echo "open files limit $(ulimit -n) is too low for $MAX_CONNS connections (needs $((2 * MAX_CONNS + 256))); raise ulimit -n" >&2; exit 1
fi

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ---------------------------------------------------------------- process control
PIDS=()
LAST_PID=
start_bg() { # name cpus cmd... ; own session/process group so the whole tree can be stopped
  local name=$1 cpus=$2; shift 2
  if [[ $PIN == 1 ]]; then
    setsid taskset -c "$cpus" "$@" >"$OUT/logs/$name.log" 2>&1 </dev/null &
  else
    setsid "$@" >"$OUT/logs/$name.log" 2>&1 </dev/null &
  fi
  LAST_PID=$!
  PIDS+=("$LAST_PID")
}
stop_pid() { # stops a process we started and its process group (setsid made pgid == pid)
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
  PIDS=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_busy() { curl -s -o /dev/null --max-time 1 "$1" 2>/dev/null; }
wait_http() { # url pid timeout_s
  local url=$1 pid=$2 t=${3:-30} i
  for i in $(seq $((t * 10))); do
    kill -0 "$pid" 2>/dev/null || { log "process $pid exited before $url was ready"; return 1; }
    curl -s -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  log "timeout waiting for $url"; return 1
}

# ---------------------------------------------------------------- measurement helpers
group_ticks() { # pgid -> utime+stime clock ticks summed over the group's processes
  local g=$1 t=0 d line rest
  [[ -z $g || $g == 0 ]] && { echo 0; return; }
  for d in /proc/[0-9]*; do
    { read -r line <"$d/stat"; } 2>/dev/null || continue
    rest=${line##*) }
    # shellcheck disable=SC2086
    set -- $rest
    [[ $3 == "$g" ]] && t=$((t + ${12} + ${13}))
  done
  echo "$t"
}
group_rss_kb() { [[ -z $1 || $1 == 0 ]] && { echo 0; return; }; ps -eo pgid=,rss= | awk -v g="$1" '$1==g {s+=$2} END {print s+0}'; }
cpu_snapshot() { awk '/^cpu[0-9]+ / {busy=$2+$3+$4+$7+$8+$9; tot=busy+$5+$6; printf "%s:%d:%d ", $1, busy, tot}' /proc/stat; }
cpu_busy_ticks() { local x t=0; for x in $1; do IFS=: read -r _ b _ <<<"$x"; t=$((t + b)); done; echo "$t"; }
cpu_busy_json() { # before after -> {"cpu0":97,"cpu1":100}
  local a=($1) b=($2) i out=""
  for i in "${!a[@]}"; do
    IFS=: read -r n b0 t0 <<<"${a[$i]}"; IFS=: read -r _ b1 t1 <<<"${b[$i]}"
    out+="\"$n\":$(( (t1 > t0) ? 100 * (b1 - b0) / (t1 - t0) : 0 )),"
  done
  echo "{${out%,}}"
}
machine_busy_pct() { # busy % of one core over 1 s, whole machine
  local a b
  a=$(awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat); sleep 1
  b=$(awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat)
  echo "$a $b" | awk -v n="$(nproc)" '{ d = $4 - $2; printf "%d", (d > 0 ? 100 * n * ($3 - $1) / d : 0) }'
}
wait_quiet() { # wait until nothing else is using the machine (our idle target included)
  local deadline=$((SECONDS + QUIET_WAIT)) pct waited=0
  while :; do
    pct=$(machine_busy_pct)
    (( pct <= QUIET_PCT )) && break
    (( SECONDS >= deadline )) && { log "    machine still ${pct}% busy after ${QUIET_WAIT}s; measuring anyway"; break; }
    (( waited++ == 0 )) && log "    machine ${pct}% busy (other processes); waiting for quiet"
  done
}
upstream_count() { # [counter] -> fake upstream counter (default: all requests)
  curl -s --max-time 2 "$UP/__stats" | sed -n "s/.*\"${1:-requests}\":\([0-9]*\).*/\1/p"
}
to_ms() { # wrk latency token (e.g. 812.00us, 3.2ms, 1.01s, 2.00m) -> ms
  awk -v v="$1" 'BEGIN { n = v + 0; u = v; gsub(/[0-9.]/, "", u);
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000; printf "%.3f", n }'
}
wrk_field() { # file what
  case $2 in
    rps) awk '/^Requests\/sec:/ {print $2}' "$1" ;;
    p50) to_ms "$(awk '$1=="50%" {print $2}' "$1")" ;;
    p90) to_ms "$(awk '$1=="90%" {print $2}' "$1")" ;;
    p99) to_ms "$(awk '$1=="99%" {print $2}' "$1")" ;;
    max) to_ms "$(awk '$1=="Latency" && $2!="Distribution" {print $4; exit}' "$1")" ;;
    reqs) awk '/requests in/ {print $1}' "$1" ;;
    non2xx) awk '/Non-2xx or 3xx responses:/ {print $5}' "$1" | grep . || echo 0 ;;
    sockerr) awk '/Socket errors:/ {gsub(/,/,""); print $4+$6+$8+$10}' "$1" | grep . || echo 0 ;;
    timeouts) awk '/Socket errors:/ {gsub(/,/,""); print $10}' "$1" | grep . || echo 0 ;;
  esac
}
TIMES_AWK='NR==2 { split($1,u,/[ms]/); split($2,s,/[ms]/); printf "%.3f", u[1]*60+u[2]+s[1]*60+s[2] }'
WRK_PIN=()
[[ $PIN == 1 ]] && WRK_PIN=(taskset -c "$HARNESS_CPUS")
run_wrk() { # url body headers conns duration outfile [timeout_s]
  local url=$1 body=$2 headers=$3 c=$4 d=$5 out=$6 to=${7:-$WRK_TIMEOUT} t=$THREADS
  (( c < t )) && t=$c
  BODY_FILE=$body EXTRA_HEADERS=$headers MAX_REQUESTS=$MAX_REQUESTS \
    timeout --kill-after=5 $((d + to + 30)) "${WRK_PIN[@]}" wrk -t"$t" -c"$c" -d"${d}s" --timeout "${to}s" --latency \
    -s "$BENCH/lib/wrk-post.lua" "$url" >"$out" 2>&1 || log "wrk exited non-zero ($out)"
}

# ---------------------------------------------------------------- request shapes
HDR_DEFAULT="Authorization: Bearer sk-bench"
# A mode's settings: MODE_BASE (the request shape, the -paced suffix removed), MODE_CHUNKS and
# MODE_DELAY_MS (the upstream's stream), MODE_CONNS, MODE_TIMEOUT (wrk's, seconds).
mode_settings() {
  MODE_BASE=${1%-paced} MODE_CHUNKS=$CHUNKS MODE_DELAY_MS=$CHUNK_DELAY_MS MODE_CONNS=$CONNS MODE_TIMEOUT=$WRK_TIMEOUT
  if [[ $1 == *-paced ]]; then
    [[ $MODE_BASE == *-stream ]] || { log "mode $1: only a stream mode can be paced (e.g. ${MODE_BASE}-stream-paced)"; return 1; }
    MODE_CHUNKS=$PACED_CHUNKS MODE_DELAY_MS=$PACED_DELAY_MS MODE_CONNS=$PACED_CONNS MODE_TIMEOUT=$PACED_TIMEOUT
  fi
}
upstream_config() { # chunks delay_ms: the stream the fake upstream sends from now on
  local got; got=$(curl -s --max-time 2 -X POST "$UP/__config?chunks=$1&chunk_delay_ms=$2")
  [[ $got == "{\"chunks\":$1,\"chunk_delay_ms\":$2}" ]] || { log "fake upstream refused chunks=$1 chunk_delay_ms=$2: $got"; return 1; }
}
gateway_var() { # target NAME -> $GATEWAY_NAME or, for gateway-b, $GATEWAY_B_NAME (falling back to $GATEWAY_NAME)
  local a=GATEWAY_$2 b=GATEWAY_B_$2
  if [[ $1 == gateway-b ]]; then printf '%s' "${!b:-${!a:-}}"; else printf '%s' "${!a:-}"; fi
}
# sets REQ_URL REQ_BODY REQ_HEADERS REQ_KIND (openai|gemini-native|openai-from-gemini) for target/mode
request_for() {
  local target=$1 mode=$2 base=$3 native=0
  case $target in direct|baseline*) native=1 ;; esac
  REQ_HEADERS=$HDR_DEFAULT
  case $mode in
    chat|chat-stream)
      REQ_URL=$base/v1/chat/completions; REQ_BODY=$BENCH/bodies/$mode.json; REQ_KIND=openai ;;
    gemini|gemini-stream)
      if [[ $native == 1 ]]; then
        REQ_BODY=$BENCH/bodies/gemini-native.json; REQ_KIND=gemini-native
        if [[ $mode == gemini ]]; then REQ_URL=$base/v1beta/models/$GEMINI_MODEL:generateContent
        else REQ_URL="$base/v1beta/models/$GEMINI_MODEL:streamGenerateContent?alt=sse"; fi
        REQ_HEADERS="x-goog-api-key: bench-key"
      else
        REQ_URL=$base/v1/chat/completions; REQ_KIND=openai-from-gemini
        if [[ $mode == gemini ]]; then REQ_BODY=$BENCH/bodies/gemini-via-chat.json; else REQ_BODY=$BENCH/bodies/gemini-via-chat-stream.json; fi
      fi ;;
    responses|responses-stream|messages|messages-stream)
      # translated formats on the gx model: the gateway only; the others are sent the native body
      if [[ $native == 1 ]]; then
        REQ_BODY=$BENCH/bodies/gemini-native.json; REQ_KIND=gemini-native
        if [[ $mode != *-stream ]]; then REQ_URL=$base/v1beta/models/$GEMINI_MODEL:generateContent
        else REQ_URL="$base/v1beta/models/$GEMINI_MODEL:streamGenerateContent?alt=sse"; fi
        REQ_HEADERS="x-goog-api-key: bench-key"
      else
        REQ_KIND=openai-from-gemini; REQ_BODY=$BENCH/bodies/gemini-via-$mode.json
        if [[ $mode == responses* ]]; then REQ_URL=$base/v1/responses; else REQ_URL=$base/v1/messages; fi
      fi ;;
    *) log "unknown mode $mode"; return 1 ;;
  esac
  case $target in
    portkey)
      if [[ $REQ_KIND == openai ]]; then
        REQ_HEADERS+=$'\n'"x-portkey-provider: openai"$'\n'"x-portkey-custom-host: $UP/v1"
      else
        REQ_HEADERS+=$'\n'"x-portkey-provider: google"$'\n'"x-portkey-custom-host: $UP"
      fi ;;
    gateway|gateway-b)
      local chat_path headers gemini_headers gemini_model
      chat_path=$(gateway_var "$target" CHAT_PATH); headers=$(gateway_var "$target" HEADERS)
      gemini_headers=$(gateway_var "$target" GEMINI_HEADERS); gemini_model=$(gateway_var "$target" GEMINI_MODEL)
      REQ_URL=${REQ_URL/\/v1\/chat\/completions/${chat_path:-/v1/chat/completions}}
      if [[ $REQ_KIND == openai ]]; then REQ_HEADERS=${headers:-$HDR_DEFAULT}
      else
        REQ_HEADERS=${gemini_headers:-${headers:-$HDR_DEFAULT}}
        if [[ -n $gemini_model ]]; then
          sed "s/\"$GEMINI_MODEL\"/\"$gemini_model\"/" "$REQ_BODY" >"$OUT/$target-$mode.json"
          REQ_BODY=$OUT/$target-$mode.json
        fi
      fi ;;
  esac
}

check_response() { # target mode(base) chunks -> 0 if the response looks right; reason on stdout otherwise
  local f=$OUT/logs/check-$1-$2.txt code args=() line counter n0 n1 chunks=$3
  case $2 in chat) counter=openai ;; chat-stream) counter=openai_stream ;; gemini) counter=gemini ;; gemini-stream) counter=gemini_stream ;; responses|messages) counter=gemini ;; *-stream) counter=gemini_stream ;; esac
  while IFS= read -r line; do [[ -n $line ]] && args+=(-H "$line"); done <<<"$REQ_HEADERS"
  n0=$(upstream_count "$counter")
  code=$(curl -s -o "$f" -w '%{http_code}' --max-time 10 -H 'Content-Type: application/json' "${args[@]}" \
    --data-binary "@$REQ_BODY" "$REQ_URL") || true
  n1=$(upstream_count "$counter")
  [[ $code == 200 ]] || { echo "HTTP $code: $(head -c 200 "$f" | tr '\n' ' ')"; return 1; }
  (( ${n1:-0} > ${n0:-0} )) || { echo "upstream endpoint for '$counter' was not called (wrong route or no translation)"; return 1; }
  grep -q 'do not guess' "$f" || { echo "answer text missing"; return 1; }
  case $2 in
    *-stream)
      local n; n=$(grep -c '^data:' "$f" || true)
      (( n >= chunks )) || { echo "only $n SSE data events (want $chunks)"; return 1; }
      if [[ $REQ_KIND == openai ]]; then grep -q '^data: \[DONE\]' "$f" || { echo "no [DONE]"; return 1; }; fi
      grep -Eq '"usage"|"usageMetadata"' "$f" || { echo "no usage chunk"; return 1; } ;;
    *)
      grep -Eq '"chat.completion"|"candidates"|"object":"response"|"type":"message"' "$f" || { echo "not a completion object"; return 1; } ;;
  esac
}

# ---------------------------------------------------------------- one target x mode
emit() { printf '%s\n' "$1" >>"$RESULTS"; }
measure() { # target mode base pgid round
  local target=$1 mode=$2 base=$3 g=$4 round=$5 why
  mode_settings "$mode" || return 0
  upstream_config "$MODE_CHUNKS" "$MODE_DELAY_MS" || return 0
  request_for "$target" "$MODE_BASE" "$base"
  if ! why=$(check_response "$target" "$MODE_BASE" "$MODE_CHUNKS"); then
    log "  $target/$mode: sanity check FAILED: $why"
    emit "{\"round\":$round,\"target\":\"$target\",\"mode\":\"$mode\",\"status\":\"failed\",\"reason\":$(printf '%s' "$why" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify(s)))')}"
    return 0
  fi
  log "  $target/$mode: warmup ${WARMUP}s"
  run_wrk "$REQ_URL" "$REQ_BODY" "$REQ_HEADERS" "$MODE_CONNS" "$WARMUP" "$OUT/wrk/$target-$mode-r$round-warmup.txt" "$MODE_TIMEOUT"
  sleep 0.5
  local u0 u1 t0 t1 c0 c1 ticks; ticks=$(getconf CLK_TCK)
  local f=$OUT/wrk/$target-$mode-r$round.txt
  # CPU accounting: target group, fake upstream group, wrk (via the shell's reaped-children
  # times) and whole-machine busy ticks; whatever is left is "other" load on the machine.
  local ug=$UPSTREAM_PID ut0=0 ut1=0 w0 w1 other attempt=0
  [[ $target == direct ]] && ug=
  while :; do
  wait_quiet
  log "  $target/$mode: measuring ${DURATION}s, $MODE_CONNS conns"
  u0=$(upstream_count); [[ -n $ug ]] && ut0=$(group_ticks "$ug"); t0=$(group_ticks "$g")
  local s0; s0=$(date +%s.%N); c0=$(cpu_snapshot)
  times >"$OUT/.times"; w0=$(awk "$TIMES_AWK" "$OUT/.times")
  # RSS mid-run too: with many open streams the end-of-run figure may already have shrunk.
  (sleep $((DURATION / 2)); group_rss_kb "$g" >"$OUT/.rss-mid") & local rss_sampler=$!
  run_wrk "$REQ_URL" "$REQ_BODY" "$REQ_HEADERS" "$MODE_CONNS" "$DURATION" "$f" "$MODE_TIMEOUT"
  wait "$rss_sampler" 2>/dev/null || true
  times >"$OUT/.times"; w1=$(awk "$TIMES_AWK" "$OUT/.times")
  c1=$(cpu_snapshot); local s1; s1=$(date +%s.%N)
  t1=$(group_ticks "$g"); [[ -n $ug ]] && ut1=$(group_ticks "$ug"); u1=$(upstream_count)
  local other; other=$(awk -v hz="$ticks" -v s0="$s0" -v s1="$s1" -v busy=$(( $(cpu_busy_ticks "$c1") - $(cpu_busy_ticks "$c0") )) \
    -v tg=$((t1 - t0)) -v up=$((ut1 - ut0)) -v w0="$w0" -v w1="$w1" \
    'BEGIN { o = 100 * ((busy - tg - up) / hz - (w1 - w0)) / (s1 - s0); printf "%.0f", (o < 0 ? 0 : o) }')
  if (( other > OTHER_MAX && attempt < RETRIES )); then
    attempt=$((attempt + 1)); log "    disturbed: ${other}% CPU used by other processes; measuring again ($attempt/$RETRIES)"; continue
  fi
  break
  done
  local rss rss_mid; rss=$(group_rss_kb "$g"); rss_mid=$(cat "$OUT/.rss-mid" 2>/dev/null || echo 0)
  (( ${rss_mid:-0} > rss )) && rss=$rss_mid
  local cpu; cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$ticks" -v s0="$s0" -v s1="$s1" 'BEGIN{printf "%.0f", 100*(b-a)/hz/(s1-s0)}')
  local cpu_s; cpu_s=$(awk -v a="$t0" -v b="$t1" -v hz="$ticks" 'BEGIN{printf "%.2f", (b-a)/hz}')
  local idle_p50=null idle_p99=null
  if (( IDLE_DURATION > 0 )); then
    local fc1=$OUT/wrk/$target-$mode-r$round-c1.txt
    wait_quiet
    run_wrk "$REQ_URL" "$REQ_BODY" "$REQ_HEADERS" 1 "$IDLE_DURATION" "$fc1" "$MODE_TIMEOUT"
    idle_p50=$(wrk_field "$fc1" p50); idle_p99=$(wrk_field "$fc1" p99)
  fi
  local rps reqs events=null
  rps=$(wrk_field "$f" rps); reqs=$(wrk_field "$f" reqs)
  [[ $MODE_BASE == *-stream ]] && events=$MODE_CHUNKS
  emit "$(printf '{"round":%s,"target":"%s","mode":"%s","status":"ok","rps":%s,"p50_ms":%s,"p90_ms":%s,"p99_ms":%s,"max_ms":%s,"requests":%s,"non2xx":%s,"socket_errors":%s,"timeouts":%s,"upstream_requests":%s,"target_cpu_pct":%s,"target_cpu_s":%s,"other_cpu_pct":%s,"attempts":%s,"cores_busy_pct":%s,"rss_mb":%s,"idle_p50_ms":%s,"idle_p99_ms":%s,"max_requests":%s,"conns":%s,"events_per_stream":%s,"chunk_delay_ms":%s,"wrk_timeout_s":%s}' \
    "$round" "$target" "$mode" "${rps:-0}" "$(wrk_field "$f" p50)" "$(wrk_field "$f" p90)" "$(wrk_field "$f" p99)" "$(wrk_field "$f" max)" "${reqs:-0}" \
    "$(wrk_field "$f" non2xx)" "$(wrk_field "$f" sockerr)" "$(wrk_field "$f" timeouts)" "$(( ${u1:-0} - ${u0:-0} ))" "$cpu" "$cpu_s" "$other" "$((attempt + 1))" "$(cpu_busy_json "$c0" "$c1")" \
    "$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')" "$idle_p50" "$idle_p99" "$MAX_REQUESTS" "$MODE_CONNS" "$events" "$MODE_DELAY_MS" "$MODE_TIMEOUT")"
  log "  $target/$mode: $rps req/s, target CPU $cpu%, other CPU $other%, RSS $((rss / 1024)) MB"
}

# ---------------------------------------------------------------- run
{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(nproc) cpus, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(uname -r)"
  echo "node: $(node -v); wrk: $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
  [[ -f $PORTKEY_JS ]] && echo "portkey: $(node -p "require('$BENCH/peers/portkey/node_modules/@portkey-ai/gateway/package.json').version") (hono $(node -p "require('$BENCH/peers/portkey/node_modules/hono/package.json').version"), @hono/node-server $(node -p "require('$BENCH/peers/portkey/node_modules/@hono/node-server/package.json').version"))"
  echo "load: $ROUNDS rounds x wrk -t$THREADS -c$CONNS -d${DURATION}s after ${WARMUP}s warmup; idle c=1 ${IDLE_DURATION}s; MAX_REQUESTS=$MAX_REQUESTS"
  echo "pinning: PIN=$PIN (target cpus $TARGET_CPUS; wrk + fake upstream cpus $HARNESS_CPUS)"
  echo "upstream: CHUNKS=$CHUNKS CHUNK_DELAY_MS=$CHUNK_DELAY_MS STREAM_WRITES=$STREAM_WRITES; wrk --timeout ${WRK_TIMEOUT}s"
  [[ " $MODES " == *"-paced "* ]] && echo "paced modes: wrk -c$PACED_CONNS --timeout ${PACED_TIMEOUT}s; upstream CHUNKS=$PACED_CHUNKS CHUNK_DELAY_MS=$PACED_DELAY_MS"
} >"$OUT/env.txt"
cat "$OUT/env.txt" >&2

port_busy "$UP/" && { log "port $UPSTREAM_PORT already in use; stop that process first"; exit 1; }
start_bg upstream "$HARNESS_CPUS" env PORT="$UPSTREAM_PORT" node "$BENCH/fake-upstream.mjs"
UPSTREAM_PID=$LAST_PID
wait_http "$UP/health" "$UPSTREAM_PID" 10

for round in $(seq "$ROUNDS"); do
log "round $round/$ROUNDS"
for target in $TARGETS; do
  base= pid=
  case $target in
    direct) base=$UP; pid=$UPSTREAM_PID ;;
    baseline|baseline-fastify)
      port=$BASELINE_PORT impl=undici
      [[ $target == baseline-fastify ]] && port=$BASELINE_FASTIFY_PORT impl=fastify
      base=http://127.0.0.1:$port
      port_busy "$base/" && { log "port $port busy, skipping $target"; continue; }
      start_bg "$target-r$round" "$TARGET_CPUS" env PORT="$port" IMPL="$impl" UPSTREAM="$UP" node "$BENCH/baseline-proxy.mjs"
      pid=$LAST_PID ;;
    portkey)
      [[ -f $PORTKEY_JS ]] || { log "portkey not installed (./setup.sh); skipping"; continue; }
      base=http://127.0.0.1:$PORTKEY_PORT
      port_busy "$base/" && { log "port $PORTKEY_PORT busy, skipping portkey"; continue; }
      start_bg "portkey-r$round" "$TARGET_CPUS" node "$PORTKEY_JS" --port="$PORTKEY_PORT" --headless
      pid=$LAST_PID ;;
    gateway|gateway-b)
      # gateway-b is configured only by its own variables (no fallback: it is the other build/config)
      p=GATEWAY; [[ $target == gateway-b ]] && p=GATEWAY_B
      url_var=${p}_URL cmd_var=${p}_CMD cwd_var=${p}_CWD pid_var=${p}_PID
      [[ -n ${!url_var:-} ]] || { log "$url_var unset; skipping $target"; continue; }
      base=${!url_var%/}
      if [[ -n ${!cmd_var:-} ]]; then
        port_busy "$base/" && { log "$base already answering; stop it or unset $cmd_var"; continue; }
        start_bg "$target-r$round" "$TARGET_CPUS" env -C "${!cwd_var:-$BENCH}" UPSTREAM_URL="$UP" OPENAI_BASE_URL="$UP/v1" \
          GEMINI_BASE_URL="$UP" bash -c "${!cmd_var}"
        pid=$LAST_PID
      else
        log "$cmd_var unset: measuring an already running $base (not pinned, no RSS/CPU)"
        pid=${!pid_var:-}
      fi ;;
    *) log "unknown target $target"; continue ;;
  esac
  log "target $target at $base (pid ${pid:-?})"
  if [[ -n $pid && $target != direct ]]; then
    wait_http "$base${READY_PATH:-/}" "$pid" 60 || { log "$target did not start; see $OUT/logs/$target-r$round.log"; stop_pid "$pid"; continue; }
  fi
  for mode in $MODES; do measure "$target" "$mode" "$base" "${pid:-0}" "$round"; done
  if [[ -n $pid && $target != direct ]]; then stop_pid "$pid"; fi
done
done

cleanup
node "$BENCH/lib/report.mjs" "$OUT" | tee "$OUT/table.md"
