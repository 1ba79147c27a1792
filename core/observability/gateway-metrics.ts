import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { outcomeLabel, type ModelRequestSummary, type ObservedRequest, type RunObserver, type SettlementSummary } from './run-observer.js';

/** Seconds: from well under a millisecond (the gateway's own work) to long generations. */
const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The gateway's Prometheus metrics, in a registry of its own per app (two apps in one process
 * share nothing, as the tests need): HTTP requests by route and status with latency; model
 * requests by operation, model, channel and outcome, and those a translator answered; upstream latency per attempt and the
 * gateway's own overhead (total − upstream); retries; open streams; tokens and quota units
 * spent; requests served past a soft budget; circuit states (read at scrape time); and the process's own metrics (memory, event
 * loop lag, GC).
 *
 * With several workers the primary aggregates the workers' registries by each metric's
 * prom-client aggregator: `sum` (counters, histograms, open streams, memory) unless the metric
 * names another (the circuit state here; event loop lag, version and start time in prom-client).
 */
export class GatewayMetrics implements RunObserver {
  readonly registry = new Registry();
  readonly #httpRequests = new Counter({ name: 'gateway_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly #httpDuration = new Histogram({ name: 'gateway_http_request_duration_seconds', help: 'Time to the response headers, by route', labelNames: ['method', 'route'], buckets: latencyBuckets, registers: [this.registry] });
  readonly #modelRequests = new Counter({ name: 'gateway_model_requests_total', help: 'Model requests by operation, model, channel and outcome', labelNames: ['operation', 'model', 'channel', 'outcome', 'status'], registers: [this.registry] });
  readonly #upstreamDuration = new Histogram({ name: 'gateway_upstream_duration_seconds', help: 'Upstream time per attempt, by channel', labelNames: ['operation', 'channel'], buckets: latencyBuckets, registers: [this.registry] });
  readonly #overhead = new Histogram({ name: 'gateway_overhead_seconds', help: "The gateway's own time per model request: total minus upstream attempts", labelNames: ['operation'], buckets: latencyBuckets, registers: [this.registry] });
  readonly #translated = new Counter({ name: 'gateway_translated_requests_total', help: 'Model requests answered through a format translator, by operation and translator', labelNames: ['operation', 'translator'], registers: [this.registry] });
  readonly #retries = new Counter({ name: 'gateway_retries_total', help: 'Attempts beyond the first, by operation', labelNames: ['operation'], registers: [this.registry] });
  readonly #openStreams = new Gauge({ name: 'gateway_open_streams', help: 'Streams being sent to clients', registers: [this.registry] });
  readonly #tokens = new Counter({ name: 'gateway_tokens_total', help: 'Tokens billed, by model and direction', labelNames: ['model', 'direction'], registers: [this.registry] });
  readonly #budgetOverruns = new Counter({ name: 'gateway_budget_overruns_total', help: 'Model requests served past a soft budget, by whose budget (token or user) and period', labelNames: ['scope', 'period'], registers: [this.registry] });
  readonly #refusedOverload = new Counter({ name: 'gateway_refused_overload_total', help: 'Model requests refused at arrival with 503 server_overloaded: the process had server.max_in_flight in flight', registers: [this.registry] });
  readonly #quota = new Counter({ name: 'gateway_quota_units_total', help: 'Quota units charged, by model (500000 = 1 USD)', labelNames: ['model'], registers: [this.registry] });

  /**
   * `circuitStates` is read at each scrape: each channel's state; so is `modelRequestsInFlight`,
   * the model requests the process carries (what `server.max_in_flight` limits).
   */
  constructor(circuitStates: () => Iterable<[channel: string, state: 'closed' | 'open' | 'half-open']>, modelRequestsInFlight: () => number = () => 0) {
    const stateValues = { closed: 0, 'half-open': 1, open: 2 } as const;
    new Gauge({
      name: 'gateway_circuit_state',
      help: 'Circuit breaker state per channel: 0 closed, 1 half-open, 2 open',
      labelNames: ['channel'],
      registers: [this.registry],
      // Each worker has breakers of its own: across workers, the worst state any of them holds.
      aggregator: 'max',
      collect() {
        this.reset();
        for (const [channel, state] of circuitStates()) this.set({ channel }, stateValues[state]);
      },
    });
    new Gauge({
      name: 'gateway_model_requests_in_flight',
      help: 'Model requests taken and not answered to their end (streams until their last event), per process; server.max_in_flight caps it',
      registers: [this.registry],
      collect() {
        this.set(modelRequestsInFlight());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.#httpRequests.inc({ method, route, status: String(status) });
    this.#httpDuration.observe({ method, route }, seconds);
  }

  requestFinished(summary: ObservedRequest): void {
    this.modelRequest(summary);
  }

  modelRequest(summary: ModelRequestSummary): void {
    this.#modelRequests.inc({ operation: summary.operation, model: summary.model, channel: summary.channel, outcome: outcomeLabel(summary.outcome), status: String(summary.status) });
    if (summary.translator !== undefined) this.#translated.inc({ operation: summary.operation, translator: summary.translator });
    if (summary.overBudget !== undefined) for (const { scope, period } of summary.overBudget) this.#budgetOverruns.inc({ scope, period });
    let upstream = 0;
    for (const attempt of summary.attempts) {
      upstream += attempt.milliseconds;
      this.#upstreamDuration.observe({ operation: summary.operation, channel: attempt.channel }, attempt.milliseconds / 1000);
    }
    if (summary.attempts.length > 1) this.#retries.inc({ operation: summary.operation }, summary.attempts.length - 1);
    if (!summary.streamed && summary.attempts.length > 0) this.#overhead.observe({ operation: summary.operation }, Math.max(0, summary.milliseconds - upstream) / 1000);
  }

  settled(summary: SettlementSummary): void {
    if (summary.inputTokens > 0) this.#tokens.inc({ model: summary.model, direction: 'input' }, summary.inputTokens);
    if (summary.outputTokens > 0) this.#tokens.inc({ model: summary.model, direction: 'output' }, summary.outputTokens);
    if (summary.units > 0) this.#quota.inc({ model: summary.model }, summary.units);
  }

  /** A model request refused at arrival because the process was full (`server.max_in_flight`). */
  refusedOverload(): void {
    this.#refusedOverload.inc();
  }

  streamOpened(): void {
    this.#openStreams.inc();
  }

  streamClosed(): void {
    this.#openStreams.dec();
  }
}
