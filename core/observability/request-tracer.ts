import { SpanKind, SpanStatusCode, context, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, TraceIdRatioBasedSampler, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ModelRequestSummary } from './run-observer.js';
import { observedCode } from './run-observer.js';

/** Where spans go and how many requests are traced. */
export interface TracingSettings {
  serviceName: string;
  /** The OTLP/HTTP traces endpoint, e.g. `http://collector:4318/v1/traces`. */
  endpoint: string;
  /** The share of requests traced, 0 to 1. */
  sampleRatio: number;
}

/**
 * OpenTelemetry traces of model requests: one server span per request (operation, model,
 * outcome, status) with a client span per upstream attempt (channel, group, outcome), built
 * from the request's summary when it ends, so nothing is added on the hot path while a request
 * runs. Spans are batched to an OTLP/HTTP collector; `close()` flushes them.
 */
export class RequestTracer {
  readonly #provider: BasicTracerProvider;
  readonly #tracer: Tracer;

  constructor(settings: TracingSettings, exporter: SpanExporter = new OTLPTraceExporter({ url: settings.endpoint })) {
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
      sampler: new TraceIdRatioBasedSampler(settings.sampleRatio),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
    });
    this.#tracer = this.#provider.getTracer('model-gateway');
  }

  modelRequest(summary: ModelRequestSummary & { startedAt: number; requestId: string }): void {
    const failed = summary.outcome !== 'success';
    const span = this.#tracer.startSpan(
      `${summary.operation} ${summary.model}`,
      {
        kind: SpanKind.SERVER,
        startTime: summary.startedAt,
        attributes: {
          'gateway.operation': summary.operation,
          'gateway.model': summary.model,
          ...(summary.requestedModel === undefined ? {} : { 'gateway.model.requested': summary.requestedModel }),
          'gateway.channel': summary.channel,
          'gateway.outcome': observedCode(summary.outcome),
          'gateway.request_id': summary.requestId,
          'gateway.streamed': summary.streamed,
          ...(summary.translator === undefined ? {} : { 'gateway.translator': summary.translator }),
          'http.response.status_code': summary.status,
        },
      },
      context.active(),
    );
    const parent = trace.setSpan(context.active(), span);
    let attemptStart = summary.startedAt;
    for (const attempt of summary.attempts) {
      const child = this.#tracer.startSpan(
        `upstream ${attempt.channel}`,
        { kind: SpanKind.CLIENT, startTime: attemptStart, attributes: { 'gateway.channel': attempt.channel, 'gateway.attempt.outcome': attempt.outcome ?? 'success' } },
        parent,
      );
      if (attempt.outcome !== undefined && attempt.outcome !== 'success') child.setStatus({ code: SpanStatusCode.ERROR, message: observedCode(attempt.code ?? attempt.outcome) });
      attemptStart += attempt.milliseconds;
      child.end(attemptStart);
    }
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: observedCode(summary.outcome) });
    span.end(summary.startedAt + summary.milliseconds);
  }

  /** Sends what is batched now. */
  async flush(): Promise<void> {
    await this.#provider.forceFlush();
  }

  /** Sends what is batched and stops. */
  async close(): Promise<void> {
    await this.#provider.shutdown();
  }
}
