import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import t, { type Test } from 'tap';
import { SseSplitter } from '../../../core/streaming/sse-splitter.js';
import { googleCompactJson, startFakeGxUpstream, type FakeGxUpstream } from './fake-gx-upstream.js';

const apiKey = 'gx-unit-key';
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gx/${name}`, import.meta.url));

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Each body chunk with the milliseconds since the request was sent. */
  arrivals: Array<{ at: number; bytes: Buffer }>;
  /** Set when the connection failed before or during the body. */
  error?: Error;
}

/** A POST with `node:http`, so the test sees the exact bytes and a reset as it happens. */
function post(fake: FakeGxUpstream, path: string, body: unknown, headers: Record<string, string> = { 'x-gx-api-key': apiKey }): Promise<RawAnswer> {
  const sent = Date.now();
  return new Promise((resolve) => {
    const answer: RawAnswer = { status: 0, headers: {}, body: Buffer.alloc(0), arrivals: [] };
    const finish = (error?: Error) => {
      answer.body = Buffer.concat(answer.arrivals.map((arrival) => arrival.bytes));
      if (error !== undefined) answer.error = error;
      resolve(answer);
    };
    const outgoing = httpRequest(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (incoming) => {
      answer.status = incoming.statusCode ?? 0;
      answer.headers = incoming.headers;
      incoming.on('data', (bytes: Buffer) => answer.arrivals.push({ at: Date.now() - sent, bytes }));
      incoming.on('end', () => finish());
      incoming.on('error', (error) => finish(error));
    });
    outgoing.on('error', (error) => finish(error));
    outgoing.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const userText = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...extra });

/** The `data:` payloads of an SSE body, parsed. */
function events(body: Buffer): Array<Record<string, any>> {
  const splitter = new SseSplitter();
  return [...splitter.push(body), ...splitter.end()].map((frame) => JSON.parse(frame.data));
}

async function startFake(t: Test): Promise<FakeGxUpstream> {
  const fake = await startFakeGxUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

t.test('generateContent answers pretty-printed JSON with the vendor headers', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('hello there'));
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json; charset=UTF-8');
  t.equal(answer.headers.server, 'scaffolding on HTTPServer2');
  t.equal(answer.headers['content-length'], String(answer.body.length));
  const text = answer.body.toString('utf8');
  const body = JSON.parse(text);
  t.equal(text, `${JSON.stringify(body, null, 2)}\n`, 'two-space pretty JSON');
  t.match(body, {
    candidates: [{ content: { parts: [{ text: 'echo: hello there' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: Number, candidatesTokenCount: Number, totalTokenCount: Number },
    modelVersion: 'gx-2.5-pro',
    responseId: String,
  });
});

t.test('requests are recorded with method, path, query, headers and body', async (t) => {
  const fake = await startFake(t);
  await post(fake, `/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse&key=${apiKey}`, userText('recorded'), {});
  t.equal(fake.requests.length, 1);
  t.match(fake.requests[0], {
    method: 'POST',
    path: '/v1beta/models/gx-2.5-pro:streamGenerateContent',
    query: { alt: 'sse', key: apiKey },
    headers: { 'content-type': 'application/json' },
    json: userText('recorded'),
  });
  t.equal(fake.requests[0]!.text, JSON.stringify(userText('recorded')));
});

t.test('the SSE stream is CRLF-framed data events in compact JSON, with no [DONE]', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('one two three'));
  t.equal(answer.headers['content-type'], 'text/event-stream');
  t.equal(answer.headers['content-disposition'], 'attachment');
  t.equal(answer.headers['transfer-encoding'], 'chunked');
  const raw = answer.body.toString('utf8');
  t.ok(raw.endsWith('\r\n\r\n'));
  t.notOk(raw.includes('[DONE]'));
  t.notOk(/event:|id:/.test(raw));
  const lines = raw.split('\r\n\r\n').slice(0, -1);
  t.equal(lines.length, 4, 'one event per word of "echo: one two three"');
  for (const line of lines) {
    t.ok(line.startsWith('data: {"candidates": [{"content": {"parts": [{"text": '), line);
    t.notOk(line.includes('\n'));
    const data = line.slice('data: '.length);
    t.equal(data, googleCompactJson(JSON.parse(data)), 'space after colons, none after commas');
  }
  t.ok(lines[0]!.includes('}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": '), 'Google spacing, as in the recorded fixture');

  const parsed = events(answer.body);
  t.same(parsed.map((event) => event.candidates[0].content.parts[0].text).join(''), 'echo: one two three');
  t.same(parsed.map((event) => event.candidates[0].finishReason), [undefined, undefined, undefined, 'STOP'], 'finishReason only on the last event');
  const counts = parsed.map((event) => event.usageMetadata.candidatesTokenCount);
  t.same(counts, [...counts].sort((left, right) => left - right), 'usage is cumulative on every event');
  t.equal(new Set(parsed.map((event) => event.responseId)).size, 1, 'one responseId for the stream');
});

t.test('the compact style matches the byte-exact recorded gx event', async (t) => {
  const recorded = fixture('gemini-stream-single-chunk.raw.sse').toString('utf8');
  const data = recorded.slice('data: '.length, -'\r\n\r\n'.length);
  t.equal(googleCompactJson(JSON.parse(data)), data);
});

t.test('streamGenerateContent without alt streams one JSON array', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent', userText('array please'));
  t.equal(answer.headers['content-type'], 'application/json; charset=UTF-8');
  const raw = answer.body.toString('utf8');
  t.ok(raw.startsWith('[{\n  "candidates"'));
  t.ok(raw.includes('\n,\r\n{'));
  const parsed = JSON.parse(raw);
  t.equal(parsed.length, 3);
  t.equal(parsed[2].candidates[0].finishReason, 'STOP');
});

t.test('includeThoughts puts a thought part first; thinking counts thoughts on every event', async (t) => {
  const fake = await startFake(t);
  const thinking = { generationConfig: { thinkingConfig: { includeThoughts: true } } };
  const parsed = events((await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('think', thinking))).body);
  t.match(parsed[0]!.candidates[0].content.parts, [{ text: String, thought: true }]);
  t.notOk('candidatesTokenCount' in parsed[0]!.usageMetadata, 'zero counts are omitted, as gx does');
  t.equal(new Set(parsed.map((event) => event.usageMetadata.thoughtsTokenCount)).size, 1);

  const quiet = { generationConfig: { thinkingConfig: { thinkingBudget: 128 } } };
  const hidden = events((await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('think', quiet))).body);
  t.notOk(hidden.some((event) => event.candidates[0].content.parts[0].thought));
  t.ok(hidden[0]!.usageMetadata.thoughtsTokenCount > 0);
});

t.test('"call <name>" with a declared function answers a functionCall with a thoughtSignature', async (t) => {
  const fake = await startFake(t);
  const tools = { tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'OBJECT' } }] }] };
  const prompt = userText('please call weather {"location": "Paris"} now', tools);
  const response = JSON.parse((await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', prompt)).body.toString('utf8'));
  t.match(response.candidates[0], {
    content: { parts: [{ functionCall: { name: 'weather', args: { location: 'Paris' } }, thoughtSignature: String }] },
    finishReason: 'STOP',
    finishMessage: 'Model generated function call(s).',
  });

  const streamed = events((await post(fake, '/v1beta/models/gx-3-pro:streamGenerateContent?alt=sse', prompt)).body);
  t.equal(streamed.length, 2, 'a gx-3 model closes with an empty text event');
  t.ok(streamed[0]!.candidates[0].content.parts[0].thoughtSignature);
  t.same(streamed[1]!.candidates[0].content.parts, [{ text: '' }]);

  const undeclared = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('call weather', {}));
  t.match(JSON.parse(undeclared.body.toString('utf8')).candidates[0].content.parts, [{ text: 'echo: call weather' }]);
});

t.test('IMAGE and AUDIO modalities answer inline media', async (t) => {
  const fake = await startFake(t);
  const image = events(
    (await post(fake, '/v1beta/models/gx-2.5-flash-image:streamGenerateContent?alt=sse', userText('a cat', { generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }))).body,
  );
  const inline = image.find((event) => event.candidates[0].content.parts?.[0]?.inlineData)!.candidates[0].content.parts[0].inlineData;
  t.equal(inline.mimeType, 'image/png');
  t.same(Buffer.from(inline.data, 'base64').subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  t.same(image.at(-1)!.candidates[0].content, { role: 'model' }, 'the closing event has no parts');
  t.match(image.at(-1)!.usageMetadata.candidatesTokensDetails, [{ modality: 'IMAGE', tokenCount: 1290 }]);

  const audio = await post(fake, '/v1beta/models/gx-2.5-flash-tts:generateContent', userText('say hi', { generationConfig: { responseModalities: ['AUDIO'] } }));
  t.equal(JSON.parse(audio.body.toString('utf8')).candidates[0].content.parts[0].inlineData.mimeType, 'audio/L16;codec=pcm;rate=24000');
});

t.test('a non-stream image answer carries text, a PNG part, STOP and usage by modality', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1beta/models/gx-3-pro-image-preview:generateContent', userText('a lighthouse', { generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }));
  const body = JSON.parse(answer.body.toString('utf8'));
  t.match(body.candidates, [{ content: { parts: [{ text: 'image: a lighthouse' }, { inlineData: { mimeType: 'image/png', data: String } }], role: 'model' }, finishReason: 'STOP', index: 0 }]);
  t.equal(body.candidates.length, 1);
  t.same(body.usageMetadata.candidatesTokensDetails, [{ modality: 'IMAGE', tokenCount: 1290 }]);
  t.equal(body.usageMetadata.totalTokenCount, body.usageMetadata.promptTokenCount + body.usageMetadata.candidatesTokenCount);
});

t.test('inline images in the prompt count 258 tokens each under modality IMAGE', async (t) => {
  const fake = await startFake(t);
  const png = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } };
  const answer = await post(fake, '/v1beta/models/gx-2.5-flash-image:generateContent', {
    contents: [{ role: 'user', parts: [png, png, { text: 'blend them' }] }],
    generationConfig: { responseModalities: ['IMAGE'] },
  });
  const usage = JSON.parse(answer.body.toString('utf8')).usageMetadata;
  t.same(usage.promptTokensDetails, [
    { modality: 'TEXT', tokenCount: 3 },
    { modality: 'IMAGE', tokenCount: 516 },
  ]);
  t.equal(usage.promptTokenCount, 519);
});

t.test('blockPrompt answers promptFeedback without candidates, streamed or not', async (t) => {
  const fake = await startFake(t);
  fake.next({ blockPrompt: 'PROHIBITED_CONTENT' });
  const whole = JSON.parse((await post(fake, '/v1beta/models/gx-2.5-flash-image:generateContent', userText('forbidden'))).body.toString('utf8'));
  t.same(Object.keys(whole), ['promptFeedback', 'usageMetadata', 'modelVersion', 'responseId']);
  t.same(whole.promptFeedback, { blockReason: 'PROHIBITED_CONTENT' });
  t.same(whole.usageMetadata, { promptTokenCount: 3, totalTokenCount: 3, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }] });

  fake.next({ blockPrompt: 'SAFETY' });
  const streamed = events((await post(fake, '/v1beta/models/gx-2.5-flash-image:streamGenerateContent?alt=sse', userText('forbidden'))).body);
  t.equal(streamed.length, 1);
  t.match(streamed[0], { promptFeedback: { blockReason: 'SAFETY', safetyRatings: [{ probability: 'HIGH', blocked: true }] } });
  t.notOk('candidates' in streamed[0]!);
});

t.test('withholdImage finishes an image answer with its reason and without the image part', async (t) => {
  const fake = await startFake(t);
  fake.next({ withholdImage: 'IMAGE_SAFETY' });
  const imageOnly = JSON.parse(
    (await post(fake, '/v1beta/models/gx-2.5-flash-image:generateContent', userText('a cat', { generationConfig: { responseModalities: ['IMAGE'] } }))).body.toString('utf8'),
  );
  t.match(imageOnly.candidates, [{ content: { role: 'model' }, finishReason: 'IMAGE_SAFETY', finishMessage: /filtered out/, index: 0 }]);
  t.notOk('parts' in imageOnly.candidates[0].content);
  t.notOk('candidatesTokensDetails' in imageOnly.usageMetadata);

  fake.next({ withholdImage: 'NO_IMAGE' });
  const withText = JSON.parse(
    (await post(fake, '/v1beta/models/gx-2.5-flash-image:generateContent', userText('a cat', { generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }))).body.toString('utf8'),
  );
  t.same(withText.candidates[0].content.parts, [{ text: 'image: a cat' }], 'the text stays');
  t.equal(withText.candidates[0].finishReason, 'NO_IMAGE');
  t.notOk('finishMessage' in withText.candidates[0]);
});

t.test('stopForSafety answers a candidate stopped by its finish reason before any content, streamed or not', async (t) => {
  const fake = await startFake(t);
  fake.next({ stopForSafety: 'SAFETY' });
  const whole = JSON.parse((await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('forbidden'))).body.toString('utf8'));
  t.same(Object.keys(whole), ['candidates', 'usageMetadata', 'modelVersion', 'responseId']);
  t.match(whole.candidates, [{ finishReason: 'SAFETY', index: 0, safetyRatings: [{}, {}, {}, { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }]);
  t.notOk('content' in whole.candidates[0], 'nothing was generated');
  t.same(whole.usageMetadata, { promptTokenCount: 3, totalTokenCount: 3, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }] }, 'the prompt is counted, no output');

  fake.next({ stopForSafety: 'PROHIBITED_CONTENT' });
  const streamed = events((await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('forbidden'))).body);
  t.equal(streamed.length, 1, 'one event');
  t.match(streamed[0], { candidates: [{ finishReason: 'PROHIBITED_CONTENT', index: 0 }], usageMetadata: { promptTokenCount: 3 } });
});

t.test('noCandidates answers usage only', async (t) => {
  const fake = await startFake(t);
  fake.next({ noCandidates: true });
  const body = JSON.parse((await post(fake, '/v1beta/models/gx-2.5-flash-image:generateContent', userText('anything'))).body.toString('utf8'));
  t.same(Object.keys(body), ['usageMetadata', 'modelVersion', 'responseId']);
});

t.test('embedContent and batchEmbedContents answer deterministic vectors', async (t) => {
  const fake = await startFake(t);
  const single = JSON.parse((await post(fake, '/v1beta/models/gx-embedding-001:embedContent', { content: { parts: [{ text: 'a' }] } })).body.toString('utf8'));
  t.equal(single.embedding.values.length, 8);
  const batch = await post(fake, '/v1beta/models/gx-embedding-001:batchEmbedContents', {
    requests: [
      { model: 'models/gx-embedding-001', content: { parts: [{ text: 'a' }] } },
      { model: 'models/gx-embedding-001', content: { parts: [{ text: 'b' }] }, outputDimensionality: 3 },
    ],
  });
  const embeddings = JSON.parse(batch.body.toString('utf8')).embeddings;
  t.same(embeddings[0].values, single.embedding.values);
  t.equal(embeddings[1].values.length, 3);
  const mismatch = await post(fake, '/v1beta/models/gx-embedding-001:batchEmbedContents', { requests: [{ model: 'models/other', content: { parts: [{ text: 'a' }] } }] });
  t.equal(mismatch.status, 400);
});

t.test('a wrong key gets the vendor 400 API_KEY_INVALID body; no key gets 403', async (t) => {
  const fake = await startFake(t);
  const wrong = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'), { 'x-gx-api-key': 'nope' });
  t.equal(wrong.status, 400);
  t.match(JSON.parse(wrong.body.toString('utf8')), {
    error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] },
  });
  const missing = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'), {});
  t.equal(missing.status, 403);
  t.match(JSON.parse(missing.body.toString('utf8')), { error: { status: 'PERMISSION_DENIED' } });
  t.equal(fake.requests.length, 2, 'refused requests are recorded too');
});

t.test('next({ error: 429 }) answers the quota body with RetryInfo, for one request only', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 429 });
  const limited = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  t.equal(limited.status, 429);
  t.same(JSON.parse(limited.body.toString('utf8')), {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
      ],
    },
  });
  t.equal((await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'))).status, 200);

  fake.next({ status: 500, body: 'upstream exploded' });
  const custom = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  t.equal(custom.status, 500);
  t.equal(custom.body.toString('utf8'), 'upstream exploded');
});

t.test('json and rawSse send exactly what the test gave', async (t) => {
  const fake = await startFake(t);
  fake.next({ json: { candidates: [] } });
  t.equal((await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'))).body.toString('utf8'), '{\n  "candidates": []\n}\n');

  const recorded = fixture('gemini-stream-multi-chunk.sse');
  fake.next({ rawSse: recorded.toString('utf8'), chunkDelayMs: 20 });
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('x'));
  t.same(answer.body, recorded);
  t.ok(answer.arrivals.length >= 4, `each event written on its own (${answer.arrivals.length} arrivals)`);
});

t.test('stallBeforeHeadersMs delays the status line', async (t) => {
  const fake = await startFake(t);
  fake.next({ stallBeforeHeadersMs: 150 });
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  t.equal(answer.status, 200);
  t.ok(answer.arrivals[0]!.at >= 140, `first byte after ${answer.arrivals[0]!.at} ms`);
});

t.test('stallAfterChunks sends some events, goes silent, then carries on', async (t) => {
  const fake = await startFake(t);
  fake.next({ stallAfterChunks: 1, stallMs: 200 });
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('a b c'));
  t.equal(events(answer.body).length, 4);
  // Measured from the request, not from the first event's arrival: a busy client reads the
  // first event late, which shortens the gap it sees but never brings the rest earlier than
  // the stall allows.
  const rest = answer.arrivals[1]!.at;
  t.ok(rest >= 195, `the events after the first came ${rest} ms after the request, past the 200 ms stall`);
  t.ok(answer.arrivals[0]!.bytes.toString('utf8').endsWith('\r\n\r\n'), 'the first event arrived whole');
});

t.test('a stall without stallMs lasts until the fake closes', async (t) => {
  const fake = await startFakeGxUpstream({ apiKey });
  fake.next({ stallAfterChunks: 0 });
  const pending = post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('x'));
  setTimeout(() => void fake.close(), 100);
  const answer = await pending;
  t.equal(answer.status, 200, 'headers came before the stall');
  t.equal(answer.body.length, 0);
});

t.test('resetAfterChunks destroys the socket mid-stream', async (t) => {
  const fake = await startFake(t);
  fake.next({ resetAfterChunks: 2 });
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('a b c d'));
  t.ok(answer.error, `the client saw ${answer.error?.message}`);
  t.equal(answer.body.toString('utf8').split('\r\n\r\n').length - 1, 2, 'two whole events arrived first');
});

t.test('resetBeforeHeaders drops the connection before any byte', async (t) => {
  const fake = await startFake(t);
  fake.next({ resetBeforeHeaders: true });
  const answer = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  t.equal(answer.status, 0);
  t.match(answer.error, { code: 'ECONNRESET' });
});

t.test('sseErrorBeforeContent, garbage and truncateSse break the stream in their own ways', async (t) => {
  const fake = await startFake(t);
  fake.next({ sseErrorBeforeContent: true });
  const failed = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('x'));
  t.equal(failed.status, 200);
  t.match(events(failed.body), [{ error: { code: 503, status: 'UNAVAILABLE' } }]);

  fake.next({ garbage: true });
  const garbage = await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  t.equal(garbage.status, 200);
  t.throws(() => JSON.parse(garbage.body.toString('utf8')));

  fake.next({ truncateSse: true });
  const truncated = await post(fake, '/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse', userText('a b'));
  t.notOk(truncated.error, 'the response ended cleanly');
  const raw = truncated.body.toString('utf8');
  t.notOk(raw.endsWith('\r\n\r\n'));
  t.equal(raw.split('\r\n\r\n').length, 3, 'two whole events, then half of the last');
  t.throws(() => events(truncated.body), 'the cut event is not JSON');
});

t.test('reset() forgets queued behaviours and recorded requests', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'));
  fake.next({ error: 500 });
  fake.reset();
  t.equal(fake.requests.length, 0);
  t.equal((await post(fake, '/v1beta/models/gx-2.5-pro:generateContent', userText('x'))).status, 200);
});

t.test('with models given, another model is a 404 NOT_FOUND in gx’s words, and a given one is answered', async (t) => {
  const fake = await startFakeGxUpstream({ apiKey, models: ['gx-8-pro'] });
  t.teardown(() => fake.close());
  const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
  const unknown = await post(fake, '/v1beta/models/gx-8-nope:generateContent', body);
  t.equal(unknown.status, 404);
  t.match(JSON.parse(unknown.body.toString('utf8')), { error: { code: 404, status: 'NOT_FOUND', message: /^models\/gx-8-nope is not found for API version v1beta/ } });
  t.equal((await post(fake, '/v1beta/models/gx-8-pro:generateContent', body)).status, 200);
});
