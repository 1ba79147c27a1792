import t from 'tap';
import { startCollector } from '../helpers/otlp-collector.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';

t.test('with tracing on, each model request is exported as a span with a child per upstream attempt', async (t) => {
  const collector = await startCollector(t);
  const healthy = await startGx(t);
  const broken = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-broken', broken.url, { priority: 10 }), gxChannel('gx-healthy', healthy.url)],
    observability: { tracing: { enabled: true, endpoint: `${collector.url}/v1/traces`, service_name: 'gateway-under-test' } },
  });
  const token = await issueToken(t, gateway);
  broken.next({ error: 503 });
  const answer = await postChat(gateway, token, chatBody('trace me'), { headers: { 'x-request-id': 'trace-request-1' } });
  t.equal(answer.statusCode, 200);
  await gateway.app.close();

  t.ok(collector.exports.length > 0, 'the spans were exported when the app closed');
  t.equal(collector.exports[0]?.path, '/v1/traces');
  const resourceSpans = collector.exports.flatMap((entry) => entry.body.resourceSpans as any[]);
  const service = resourceSpans[0].resource.attributes.find((attribute: any) => attribute.key === 'service.name');
  t.equal(service.value.stringValue, 'gateway-under-test');
  const spans = resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope: any) => scope.spans as any[]));
  const attribute = (span: any, key: string) => span.attributes.find((entry: any) => entry.key === key)?.value;
  const request = spans.find((span) => span.name === 'chat gx-2.5-pro');
  t.ok(request, 'the request span');
  t.equal(attribute(request, 'gateway.request_id').stringValue, 'trace-request-1');
  t.equal(attribute(request, 'gateway.channel').stringValue, 'gx-healthy');
  const attempts = spans.filter((span) => span.parentSpanId === request.spanId).map((span) => span.name);
  t.strictSame(attempts, ['upstream gx-broken', 'upstream gx-healthy']);
});

t.test('with tracing off, nothing is exported', async (t) => {
  const collector = await startCollector(t);
  const upstream = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', upstream.url)], observability: { tracing: { enabled: false, endpoint: `${collector.url}/v1/traces` } } });
  const token = await issueToken(t, gateway);
  await postChat(gateway, token, chatBody('no trace'));
  await gateway.app.close();
  t.equal(collector.exports.length, 0);
});
