import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import t from 'tap';
import { RequestTracer } from '../../../core/observability/request-tracer.js';

t.test('a model request becomes a server span with a client span per upstream attempt', async (t) => {
  const exporter = new InMemorySpanExporter();
  const tracer = new RequestTracer({ serviceName: 'gateway-test', endpoint: 'http://unused', sampleRatio: 1 }, exporter);
  const startedAt = Date.now();
  tracer.modelRequest({
    operation: 'chat',
    model: 'gx-2.5-pro',
    channel: 'gx-second',
    outcome: 'success',
    status: 200,
    streamed: false,
    milliseconds: 40,
    startedAt,
    requestId: 'req-1',
    attempts: [
      { channel: 'gx-first', milliseconds: 10, outcome: 'failed', code: 'upstream_error' },
      { channel: 'gx-second', milliseconds: 25, outcome: 'success' },
    ],
  });
  await tracer.flush();
  const spans = exporter.getFinishedSpans();
  const server = spans.find((span) => span.kind === SpanKind.SERVER);
  const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
  t.equal(server?.name, 'chat gx-2.5-pro');
  t.match(server?.attributes, { 'gateway.model': 'gx-2.5-pro', 'gateway.channel': 'gx-second', 'gateway.request_id': 'req-1', 'http.response.status_code': 200 });
  t.equal(server?.resource.attributes['service.name'], 'gateway-test');
  t.strictSame(clients.map((span) => span.name), ['upstream gx-first', 'upstream gx-second']);
  t.ok(clients.every((span) => span.parentSpanContext?.spanId === server?.spanContext().spanId), 'attempts are children of the request');
  t.equal(clients[0]?.status.code, SpanStatusCode.ERROR);
  t.equal(clients[0]?.status.message, 'upstream_error');
  t.equal(clients[1]?.status.code, SpanStatusCode.UNSET);
});

t.test('a failed request is marked as an error, and a ratio of 0 traces nothing', async (t) => {
  const exporter = new InMemorySpanExporter();
  const tracer = new RequestTracer({ serviceName: 'gateway-test', endpoint: 'http://unused', sampleRatio: 1 }, exporter);
  const summary = { operation: 'chat', model: 'm', channel: 'none', outcome: 'model_not_found', status: 404, streamed: false, milliseconds: 1, startedAt: Date.now(), requestId: 'r', attempts: [] };
  tracer.modelRequest(summary);
  await tracer.flush();
  t.equal(exporter.getFinishedSpans()[0]?.status.code, SpanStatusCode.ERROR);

  const silent = new InMemorySpanExporter();
  const unsampled = new RequestTracer({ serviceName: 'gateway-test', endpoint: 'http://unused', sampleRatio: 0 }, silent);
  unsampled.modelRequest(summary);
  await unsampled.flush();
  t.equal(silent.getFinishedSpans().length, 0);
});
