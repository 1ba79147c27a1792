import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { issueToken, lastRequestRecord, scenarioGateway, startTcpRelay, waitForToken } from '../helpers/gateway-scenario.js';

// A client that leaves in the middle of a stream whose upstream reports usage only at its end
// (OpenAI chat with include_usage, Responses): the upstream call is closed at once, and the
// token pays the gateway's estimate of the prompt and of the text sent, flagged estimated,
// never nothing and never the whole answer (reference/landscape.md §3.1).

const upstreamKey = 'openai-upstream-key';
// gp-5.4 at 2 USD per million input tokens and 8 per million output tokens: at 500000
// units per USD, 1 unit per input token and 4 per output token.
const pricing = { 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };
const startingQuota = 5_000_000;
const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
const messages = [{ role: 'user', content: words }];

const routes = [
  { name: 'chat stream', path: '/v1/chat/completions', body: { model: 'gp-5.4', stream: true, messages }, contentEvent: /"content":"/ },
  { name: 'Responses stream', path: '/v1/responses', body: { model: 'gp-5.4', stream: true, input: words }, contentEvent: /response\.output_text\.delta/ },
];

for (const route of routes) {
  t.test(`a client that leaves a ${route.name} midway pays the estimate of the prompt and the text sent, and the upstream call is closed`, async (t) => {
    const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
    t.teardown(() => fake.close());
    const relay = await startTcpRelay(t, fake.url);
    const gateway = await scenarioGateway(t, {
      pricing,
      providers: [{ name: 'gp-main', plugin: 'gp', base_url: relay.url, api_key: upstreamKey, models: ['gp-5.4'], model_map: { 'gp-5.4': 'gpt-5.4' } }],
    });
    const token = await issueToken(t, gateway, { remain_quota: startingQuota });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.app.server.address() as AddressInfo;

    fake.next({ stallAfterChunks: 6 });
    const received = await new Promise<string>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: route.path, headers: { ...token.bearer, 'content-type': 'application/json' } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (route.contentEvent.test(text)) {
            request.destroy();
            resolve(text);
          }
        });
        response.on('error', () => {});
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      request.end(JSON.stringify(route.body));
    });
    t.match(received, route.contentEvent, 'the client read the start of the answer, then went away');
    await relay.waitForClosed(1);
    t.pass('the gateway closed its connection to the upstream');

    const stored = await waitForToken(gateway, token, (current) => current.used_quota > 0);
    // The estimate in docs/request-pipeline.md: a quarter of the bytes of the prompt's JSON at the input price.
    const promptTokens = Math.ceil(Buffer.byteLength(JSON.stringify(route.path === '/v1/responses' ? { input: words } : messages)) / 4);
    const wholeAnswerTokens = Math.ceil(`echo: ${words}`.length / 4);
    t.ok(stored.used_quota > promptTokens, `the prompt (${promptTokens} units) and some output are billed: ${stored.used_quota} units`);
    t.ok(stored.used_quota <= promptTokens + 4 * wholeAnswerTokens, 'no more than the prompt and the whole answer would cost');
    t.equal(stored.used_quota + stored.remain_quota, startingQuota, 'the rest of the hold is given back');
    t.match(lastRequestRecord(gateway), { msg: 'model request answered', stream: true, end: 'client_gone', usage_source: 'estimated' }, 'its log line says the client left and the usage was estimated');
  });
}
