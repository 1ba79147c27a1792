import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { SseSplitter } from '../../core/streaming/sse-splitter.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, scenarioGateway, scenarioPricing, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';

// gp models cost 2 USD per million input tokens and 8 per million output tokens: at 500000
// quota units per USD an input token is 1 unit and an output token 4, so costs are exact.
const pricing = { ...scenarioPricing, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };
const unitsFor = (input: number, output: number) => input + output * 4;

const upstreamKey = 'gp-upstream-key';
const fixture = (name: string) => readFileSync(new URL(`../fixtures/gp/${name}`, import.meta.url), 'utf8');

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

const gpChannel = (name: string, baseUrl: string, fields: Record<string, unknown> = {}) => ({
  name,
  plugin: 'gp',
  base_url: baseUrl,
  api_key: upstreamKey,
  models: ['gp-5.4'],
  model_map: { 'gp-5.4': 'gpt-5.4' },
  groups: ['default'],
  ...fields,
});

const responsesBody = (text: string, fields: Record<string, unknown> = {}) => ({ model: 'gp-5.4', input: [{ role: 'user', content: text }], ...fields });

function postResponses(gateway: TestApp, token: IssuedToken, body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url: '/v1/responses',
    headers: { ...token.bearer, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The events of a Responses stream as the client reads them: event name and parsed data. */
function streamEvents(body: string): Array<{ event: string | undefined; data: Record<string, any> }> {
  const splitter = new SseSplitter();
  return [...splitter.push(Buffer.from(body)), ...splitter.end()].map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) as Record<string, any> }));
}

const deltaText = (events: ReturnType<typeof streamEvents>) =>
  events.filter((event) => event.event === 'response.output_text.delta').map((event) => event.data.delta as string).join('');

t.test('the Responses endpoint for gp models', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [gpChannel('gp-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const lastSent = () => fake.requests.at(-1)!;

  t.test('a non-stream answer is the upstream Response object byte for byte, billed from its usage', async (t) => {
    const recorded = fixture('openai-responses-nonstream-reasoning.json');
    fake.next({ status: 200, body: recorded });
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('What is 2+2?', { reasoning: { effort: 'low', summary: 'auto' } }));
    t.equal(response.statusCode, 200);
    t.equal(response.payload, recorded);
    t.match(response.headers['content-type'], /application\/json/);
    t.equal(lastSent().path, '/v1/responses');
    t.equal(lastSent().headers.authorization, `Bearer ${upstreamKey}`);
    const after = await storedToken(gateway, token);
    t.equal(after.used_quota - before.used_quota, unitsFor(865, 163), 'input 865 and output 163 tokens, reasoning included');
  });

  t.test('the default answer is a completed Response object with the message text and usage', async (t) => {
    const response = await postResponses(gateway, token, responsesBody('hello there'));
    t.equal(response.statusCode, 200);
    t.match(response.json(), {
      id: /^resp_/,
      object: 'response',
      status: 'completed',
      model: 'gpt-5.4',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'echo: hello there', annotations: [] }] }],
      usage: { input_tokens: Number, output_tokens: Number, total_tokens: Number, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    });
  });

  t.test('every spec field and unknown extras reach the upstream, with the mapped model', async (t) => {
    const fields = {
      instructions: 'Answer briefly.',
      max_output_tokens: 200,
      temperature: 0.4,
      top_p: 0.9,
      reasoning: { effort: 'medium', summary: 'detailed' },
      tools: [
        { type: 'web_search_preview', search_context_size: 'high', user_location: { type: 'approximate', country: 'GB', city: 'London', timezone: 'Europe/London' } },
        { type: 'file_search', vector_store_ids: ['vs_123'] },
        { type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      max_tool_calls: 2,
      truncation: 'auto',
      metadata: { ticket: '42' },
      user: 'user-7',
      store: true,
      include: ['reasoning.encrypted_content'],
      text: { verbosity: 'low' },
    };
    const response = await postResponses(gateway, token, responsesBody('look it up', fields));
    t.equal(response.statusCode, 200);
    t.strictSame(lastSent().json, { ...responsesBody('look it up', fields), model: 'gpt-5.4' });
  });

  t.test('a function tool the model calls comes back as a function_call item', async (t) => {
    fake.next({ functionCall: { name: 'lookup', arguments: { q: 'weather' } } });
    const response = await postResponses(gateway, token, responsesBody('weather?', { tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }] }));
    t.equal(response.statusCode, 200);
    t.match(response.json().output, [{ type: 'function_call', name: 'lookup', arguments: '{"q":"weather"}' }]);
  });

  t.test('a stream is SSE with an event line and a data line per event, numbered from 0, without [DONE]', async (t) => {
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('stream this please', { stream: true }));
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /text\/event-stream/);
    t.notMatch(response.payload, /\[DONE\]/);
    const events = streamEvents(response.payload);
    t.ok(events.every((event) => event.event === event.data.type), 'each type equals its event name');
    t.strictSame(
      events.map((event) => event.data.sequence_number),
      events.map((_, index) => index),
    );
    t.strictSame(
      [...new Set(events.map((event) => event.event))],
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ],
    );
    t.equal(deltaText(events), 'echo: stream this please');
    const usage = events.at(-1)!.data.response.usage as { input_tokens: number; output_tokens: number };
    const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
    t.equal(after.used_quota - before.used_quota, unitsFor(usage.input_tokens, usage.output_tokens), 'billed from response.completed');
  });

  t.test('the recorded stream reaches the client byte for byte', async (t) => {
    const recorded = fixture('openai-responses-stream-text.sse');
    fake.next({ rawSse: recorded });
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('recorded', { stream: true }));
    t.equal(response.payload, recorded);
    const after = await waitForToken(gateway, token, (stored) => stored.used_quota > before.used_quota);
    t.equal(after.used_quota - before.used_quota, unitsFor(299, 12));
  });

  t.test('an error after content ends the stream with an in-band error event that continues the numbering', async (t) => {
    fake.next({ streamErrorAfterContent: 'server_error' });
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('this will break off', { stream: true }));
    t.equal(response.statusCode, 200);
    const events = streamEvents(response.payload);
    const last = events.at(-1)!;
    t.equal(last.event, 'error');
    t.match(last.data, { type: 'error', sequence_number: events.length - 1, error: { message: String, type: String, code: String } });
    t.ok(deltaText(events).length > 0, 'the content before the error was delivered');
    const after = await waitForToken(gateway, token, (stored) => stored.used_quota !== before.used_quota);
    t.ok(after.used_quota > before.used_quota, 'what was delivered is billed');
    t.ok(after.remain_quota + after.used_quota === before.remain_quota + before.used_quota, 'the rest of the reservation is refunded');
  });

  t.test('an error event before content with no other channel is an OpenAI-shaped error, nothing charged', async (t) => {
    fake.next({ streamErrorBeforeContent: true });
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('no quota upstream', { stream: true }));
    t.equal(response.statusCode, 429);
    t.match(response.json(), { error: { message: /exceeded your current quota/, type: String, code: String } });
    const after = await storedToken(gateway, token);
    t.equal(after.used_quota, before.used_quota);
    t.equal(after.remain_quota, before.remain_quota);
  });

  t.test('bad input is a 400 in the OpenAI error shape naming the field', async (t) => {
    const sent = fake.requests.length;
    for (const [fields, param] of [
      [{ temperature: 3 }, 'temperature'],
      [{ top_p: 2 }, 'top_p'],
      [{ reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
      [{ truncation: 'yes' }, 'truncation'],
      [{ tools: [{ type: 'web_search_preview', user_location: { type: 'precise' } }] }, 'tools[0].user_location.type'],
      [{ max_tool_calls: 0 }, 'max_tool_calls'],
    ] as const) {
      const response = await postResponses(gateway, token, responsesBody('x', fields));
      t.equal(response.statusCode, 400, param);
      t.match(response.json(), { error: { type: 'invalid_request_error', param, message: String } }, param);
    }
    const broken = await postResponses(gateway, token, '{"model": "gp-5.4", "input": [');
    t.equal(broken.statusCode, 400);
    t.match(broken.json(), { error: { type: 'invalid_request_error' } });
    const missing = await postResponses(gateway, token, { model: 'gp-5.4' });
    t.match(missing.json(), { error: { param: 'input', message: /input: required/ } });
    t.equal(fake.requests.length, sent, 'nothing reached the upstream');
  });

  t.test('a model no channel serves is a 404 in the OpenAI shape', async (t) => {
    const response = await postResponses(gateway, token, { model: 'gp-unknown', input: 'hi' });
    t.equal(response.statusCode, 404);
    t.match(response.json(), { error: { code: 'model_not_found', param: 'model' } });
  });

  t.test('a request without a key is a 401', async (t) => {
    const response = await gateway.app.inject({ method: 'POST', url: '/v1/responses', payload: responsesBody('x') });
    t.equal(response.statusCode, 401);
    t.match(response.json(), { error: { message: String } });
  });
});

t.test('an error event before content fails over to the next channel, and the client sees only that channel', async (t) => {
  const failing = await startOpenAi(t);
  const healthy = await startOpenAi(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    providers: [gpChannel('gp-first', failing.url, { priority: 10 }), gpChannel('gp-second', healthy.url)],
  });
  const token = await issueToken(t, gateway);
  failing.next({ streamErrorBeforeContent: true });
  const response = await postResponses(gateway, token, responsesBody('fail over', { stream: true }));
  t.equal(response.statusCode, 200);
  const events = streamEvents(response.payload);
  t.equal(events.filter((event) => event.event === 'response.created').length, 1, 'one response.created, from the channel that answered');
  t.equal(events[0]?.data.sequence_number, 0);
  t.equal(deltaText(events), 'echo: fail over');
  t.strictSame(lastAttempts(gateway), ['gp-first:failed', 'gp-second:success']);
});

t.test('previous_response_id continues on the channel that produced the response', async (t) => {
  const first = await startOpenAi(t);
  const second = await startOpenAi(t);
  const gateway = await scenarioGateway(t, { pricing, providers: [gpChannel('gp-a', first.url), gpChannel('gp-b', second.url)] });
  const token = await issueToken(t, gateway);

  for (const stream of [false, true]) {
    const opening = await postResponses(gateway, token, responsesBody('remember 7', { stream }));
    t.equal(opening.statusCode, 200);
    const id = (stream ? streamEvents(opening.payload)[0]!.data.response.id : opening.json().id) as string;
    const holder = first.storedResponses.has(id) ? first : second;
    const counts = () => [first.requests.length, second.requests.length];
    const before = counts();
    for (let turn = 0; turn < 8; turn += 1) {
      const followUp = await postResponses(gateway, token, responsesBody(`turn ${turn}`, { previous_response_id: id, stream }));
      t.equal(followUp.statusCode, 200, `turn ${turn} (stream: ${stream})`);
    }
    const after = counts();
    const holderIndex = holder === first ? 0 : 1;
    t.equal(after[holderIndex]! - before[holderIndex]!, 8, `every follow-up went to the channel holding ${id}`);
    t.equal(after[1 - holderIndex]! - before[1 - holderIndex]!, 0);
    t.equal(holder.requests.at(-1)!.json && (holder.requests.at(-1)!.json as Record<string, unknown>).previous_response_id, id);
  }
});

t.test('when the channel holding a conversation fails, routing.affinity.on_channel_down decides', async (t) => {
  // Both channels reach the same upstream account, so either can continue the conversation.
  const upstream = await startOpenAi(t);
  const channels = [gpChannel('gp-holder', upstream.url), gpChannel('gp-other', upstream.url)];
  const opening = async (gateway: TestApp, token: IssuedToken) => {
    const response = await postResponses(gateway, token, responsesBody('start'));
    const holder = lastAttempts(gateway)[0]!.split(':')[0]!;
    return { id: response.json().id as string, holder, other: holder === 'gp-holder' ? 'gp-other' : 'gp-holder' };
  };

  t.test('failover (the default) moves the follow-up to another channel', async (t) => {
    const gateway = await scenarioGateway(t, { pricing, providers: channels });
    const token = await issueToken(t, gateway);
    const { id, holder, other } = await opening(gateway, token);
    upstream.next({ error: 500 });
    const response = await postResponses(gateway, token, responsesBody('next', { previous_response_id: id }));
    t.equal(response.statusCode, 200);
    t.strictSame(lastAttempts(gateway), [`${holder}:failed`, `${other}:success`]);
  });

  t.test('fail answers with the holder’s error and tries no other channel', async (t) => {
    const gateway = await scenarioGateway(t, { pricing, providers: channels, routing: { affinity: { on_channel_down: 'fail' } } });
    const token = await issueToken(t, gateway);
    const { id, holder } = await opening(gateway, token);
    upstream.next({ error: 500 });
    const before = await storedToken(gateway, token);
    const response = await postResponses(gateway, token, responsesBody('next', { previous_response_id: id }));
    t.equal(response.statusCode, 502);
    t.match(response.json(), { error: { type: 'server_error' } });
    t.strictSame(lastAttempts(gateway), [`${holder}:failed`]);
    const after = await storedToken(gateway, token);
    t.equal(after.remain_quota, before.remain_quota, 'nothing charged');
  });
});
