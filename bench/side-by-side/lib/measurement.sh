# Sourced by paired.sh, profile.sh and stream-cost.sh: the processes of one measurement, stopped
# together when the script exits, and the median of its runs. Uses BENCH, OUT, UPSTREAM_PORT,
# HARNESS_CPUS and TARGET_CPUS.
PIDS=()
stop_harness() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap stop_harness EXIT

# start_upstream: the fake upstream on the harness core; returns once it answers.
start_upstream() {
  (PORT=$UPSTREAM_PORT exec taskset -c "$HARNESS_CPUS" node "$BENCH/fake-upstream.mjs" >"$OUT/upstream.log" 2>&1) &
  PIDS+=($!)
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$UPSTREAM_PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done
}

# start_gateway DIR PORT [NODE_FLAG...]: the checkout DIR set up by gateway-setup.sh (its config
# in $OUT/gateway, GATEWAY_CONFIG_EXTRA appended; GATEWAY_HEADERS carries its API key) and
# started on the target core with the node flags given; GW is its pid, node's own (exec), so a
# SIGTERM reaches the process that writes a profile as it exits. Returns once it answers.
start_gateway() {
  local dir=$1 port=$2 setup bin
  shift 2
  setup=$(cd "$BENCH" && GATEWAY_DIR=$dir GATEWAY_CONFIG_EXTRA="${GATEWAY_CONFIG_EXTRA:-}" GATEWAY_WORK="$OUT/gateway" GATEWAY_PORT=$port \
    UPSTREAM_PORT=$UPSTREAM_PORT BENCH_NO_BUILD=${BENCH_NO_BUILD:-1} ./gateway-setup.sh 2>"$OUT/setup.log")
  eval "$setup"
  bin=$(cd "$dir" && node -p "require('./package.json').bin['model-gateway']")
  (cd "$dir" && exec taskset -c "$TARGET_CPUS" node "$@" "$bin" start --config "$OUT/gateway/gateway.yaml" >"$OUT/gateway.log" 2>&1) &
  GW=$!
  PIDS+=("$GW")
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
}

# stop_gateway: SIGTERM to the gateway started last, and a wait (up to 10 s) until it has exited,
# so a profile it writes as it exits is there.
stop_gateway() {
  kill -TERM "$GW"
  for _ in $(seq 100); do kill -0 "$GW" 2>/dev/null || break; sleep 0.1; done
}

# median NUMBER...: the median of the numbers.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
