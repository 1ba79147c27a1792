import t from 'tap';
import { googleCompactJson, googlePrettyJson } from '../fakes/gx/fake-gx-upstream.js';
import { gxChannel, gxUpstreamKey, issueToken, nativeBody, postNative, scenarioGateway, sseData, startGx, storedToken } from '../helpers/gateway-scenario.js';

const startingQuota = 5_000_000;

/** One stream event of a scripted answer. */
const event = (text: string, last: boolean, candidatesTokenCount: number) => ({
  candidates: [{ content: { parts: [{ text }], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
  usageMetadata: { promptTokenCount: 4, candidatesTokenCount, totalTokenCount: 4 + candidatesTokenCount },
  modelVersion: 'gx-2.5-pro',
  responseId: 'native-stream',
});
const scriptedChunks = [event('Hello', false, 1), event(' there', false, 2), event(', friend.', true, 4)];

t.test('native endpoints pass gx requests and answers through', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [
      gxChannel('gx-main', fake.url, {
        models: ['gx-2.5-pro*', 'gx-2.5-flash-image', 'gx-2.5-flash-tts'],
        model_map: { 'gx-latest': 'gx-2.5-pro', 'embed-latest': 'gx-embedding-001' },
      }),
    ],
  });
  const token = await issueToken(t, gateway);

  t.test('generateContent answers the upstream body byte for byte, from the mapped upstream model', async (t) => {
    const answer = { ...event('Hello, friend.', true, 4), usageMetadata: { promptTokenCount: 1001, candidatesTokenCount: 333, totalTokenCount: 1334 } };
    fake.next({ json: answer });
    const before = await storedToken(gateway, token);
    const body = nativeBody('hello', { generationConfig: { temperature: 0.3, candidateCount: 1 }, safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }] });
    const response = await postNative(gateway, token, 'gx-latest:generateContent', body);
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /^application\/json/);
    t.equal(response.payload, googlePrettyJson(answer), 'the body text is exactly what the upstream sent');

    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1beta/models/gx-2.5-pro:generateContent', 'model_map rewrote the upstream path');
    t.same(sent.json, body, 'the request body is forwarded as the client sent it');
    t.equal(sent.headers['x-gx-api-key'], gxUpstreamKey, "the upstream gets the channel's key");
    t.notMatch(JSON.stringify(sent.headers), token.key, "and never the client's");

    // (1001 × 1.25 + 333 × 10) / 10^6 USD × 500000 = 2290.625 → 2291 units.
    const after = await storedToken(gateway, token);
    t.equal(after.used_quota - before.used_quota, 2291, 'the usage is billed');
    t.equal(before.remain_quota - after.remain_quota, 2291);
  });

  t.test("the fake's default answer keeps its pretty JSON form", async (t) => {
    const response = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('pretty'));
    t.equal(response.payload, googlePrettyJson(JSON.parse(response.payload)));
    t.equal(response.json().candidates[0].content.parts[0].text, 'echo: pretty');
  });

  t.test('streamGenerateContent?alt=sse re-emits every event with CRLF framing and no [DONE]', async (t) => {
    fake.next({ chunks: scriptedChunks });
    const response = await postNative(gateway, token, 'gx-latest:streamGenerateContent?alt=sse', nativeBody('stream'));
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /^text\/event-stream/);
    t.equal(response.headers['cache-control'], 'no-cache');
    t.equal(response.payload, scriptedChunks.map((chunk) => `data: ${googleCompactJson(chunk)}\r\n\r\n`).join(''), 'byte for byte');
    t.notMatch(response.payload, /\[DONE\]/);
    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1beta/models/gx-2.5-pro:streamGenerateContent');
    t.same(sent.query, { alt: 'sse' });
  });

  t.test('streamGenerateContent without alt answers one JSON array', async (t) => {
    fake.next({ chunks: scriptedChunks });
    const response = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent', nativeBody('array'));
    t.equal(response.statusCode, 200);
    t.match(response.headers['content-type'], /^application\/json/);
    t.same(JSON.parse(response.payload), scriptedChunks, 'the events, as one array');
    t.same(fake.requests.at(-1)!.query, { alt: 'sse' }, 'the gateway still reads the upstream as SSE');
  });

  t.test('a stream whose events carry no content is still one well-formed answer', async (t) => {
    const blocked = {
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
      modelVersion: 'gx-2.5-pro',
      responseId: 'blocked',
    };
    fake.next({ chunks: [blocked] });
    const array = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent', nativeBody('blocked'));
    t.equal(array.statusCode, 200);
    t.same(JSON.parse(array.payload), [blocked], 'one JSON array with the one event');

    fake.next({ chunks: [blocked] });
    const sse = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('blocked'));
    t.equal(sse.payload, `data: ${googleCompactJson(blocked)}\r\n\r\n`, 'the one event, once');
  });

  t.test('a thinking suffix reaches the upstream as thinkingConfig on the bare model', async (t) => {
    const response = await postNative(gateway, token, 'gx-2.5-pro-thinking-1024:generateContent', nativeBody('think'));
    t.equal(response.statusCode, 200);
    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1beta/models/gx-2.5-pro:generateContent');
    t.same((sent.json as any).generationConfig, { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } });
  });

  t.test('embedContent and batchEmbedContents are forwarded with the body model rewritten', async (t) => {
    const before = await storedToken(gateway, token);
    const single = await postNative(gateway, token, 'embed-latest:embedContent', { model: 'models/embed-latest', content: { parts: [{ text: 'embed me' }] } });
    t.equal(single.statusCode, 200);
    t.equal(single.json().embedding.values.length, 8);
    const sentSingle = fake.requests.at(-1)!;
    t.equal(sentSingle.path, '/v1beta/models/gx-embedding-001:embedContent');
    t.equal((sentSingle.json as any).model, 'models/gx-embedding-001');

    const batch = await postNative(gateway, token, 'embed-latest:batchEmbedContents', {
      requests: [
        { model: 'models/embed-latest', content: { parts: [{ text: 'first' }] } },
        { model: 'models/embed-latest', content: { parts: [{ text: 'second' }] }, outputDimensionality: 4 },
      ],
    });
    t.equal(batch.statusCode, 200, 'the upstream accepted every request as naming its model');
    t.same(batch.json().embeddings.map((embedding: { values: number[] }) => embedding.values.length), [8, 4]);
    const sentBatch = fake.requests.at(-1)!;
    t.equal(sentBatch.path, '/v1beta/models/gx-embedding-001:batchEmbedContents');
    t.same((sentBatch.json as any).requests.map((request: { model: string }) => request.model), ['models/gx-embedding-001', 'models/gx-embedding-001']);

    // per_call 0.0001 USD = 50 units, once per call.
    t.equal((await storedToken(gateway, token)).used_quota - before.used_quota, 100);
  });

  t.test('an image comes back through generateContent and is billed per image', async (t) => {
    const before = await storedToken(gateway, token);
    const response = await postNative(gateway, token, 'gx-2.5-flash-image:generateContent', nativeBody('a red dot', { generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }));
    t.equal(response.statusCode, 200);
    const parts = response.json().candidates[0].content.parts as Array<{ text?: string; inlineData?: { mimeType: string; data: string } }>;
    t.ok(parts.some((part) => part.inlineData?.mimeType === 'image/png' && Buffer.from(part.inlineData.data, 'base64').subarray(1, 4).toString() === 'PNG'), 'a PNG part');
    t.same((fake.requests.at(-1)!.json as any).generationConfig.responseModalities, ['TEXT', 'IMAGE']);
    // per_image 0.04 USD = 20000 units.
    t.equal((await storedToken(gateway, token)).used_quota - before.used_quota, 20_000);
  });

  t.test('speech comes back through generateContent as PCM audio', async (t) => {
    const speechConfig = { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } };
    const response = await postNative(gateway, token, 'gx-2.5-flash-tts:generateContent', nativeBody('Say hello', { generationConfig: { responseModalities: ['AUDIO'], speechConfig } }));
    t.equal(response.statusCode, 200);
    const part = response.json().candidates[0].content.parts[0];
    t.equal(part.inlineData.mimeType, 'audio/L16;codec=pcm;rate=24000');
    t.ok(Buffer.from(part.inlineData.data, 'base64').length > 0);
    t.same((fake.requests.at(-1)!.json as any).generationConfig.speechConfig, speechConfig, 'speechConfig reaches the upstream');
  });

  t.test('the API key may come as x-gx-api-key or ?key=, and is never passed upstream', async (t) => {
    const viaHeader = await postNative(gateway, undefined, 'gx-2.5-pro:generateContent', nativeBody('header key'), { 'x-gx-api-key': `sk-${token.key}` });
    t.equal(viaHeader.statusCode, 200);
    t.equal(fake.requests.at(-1)!.headers['x-gx-api-key'], gxUpstreamKey);

    const viaQuery = await postNative(gateway, undefined, `gx-2.5-pro:generateContent?key=sk-${token.key}`, nativeBody('query key'));
    t.equal(viaQuery.statusCode, 200);
    t.same(fake.requests.at(-1)!.query, {}, 'the client key is not in the upstream query');
    t.equal(fake.requests.at(-1)!.headers['x-gx-api-key'], gxUpstreamKey);

    const viaQueryStream = await postNative(gateway, undefined, `gx-2.5-pro:streamGenerateContent?alt=sse&key=sk-${token.key}`, nativeBody('query stream'));
    t.equal(viaQueryStream.statusCode, 200);
    t.ok(sseData(viaQueryStream.payload).length > 0);
    t.same(fake.requests.at(-1)!.query, { alt: 'sse' });
  });

  t.test('errors come in the native shape', async (t) => {
    const unknown = await postNative(gateway, token, 'gx-9-ultra:generateContent', nativeBody('who'));
    t.equal(unknown.statusCode, 404);
    t.match(unknown.json(), { error: { code: 404, status: 'NOT_FOUND', message: /gx-9-ultra/ } });

    fake.next({ error: 429 });
    const limited = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('busy'));
    t.equal(limited.statusCode, 429);
    t.match(limited.json(), { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: /rate limiting/ } });

    fake.next({ error: 500 });
    const failed = await postNative(gateway, token, 'gx-2.5-pro:streamGenerateContent?alt=sse', nativeBody('broken'));
    t.equal(failed.statusCode, 502);
    t.match(failed.json(), { error: { code: 502, status: 'INTERNAL', message: String } });
    t.same(Object.keys(failed.json().error).sort(), ['code', 'message', 'status']);
  });

  t.test('a failed native request costs nothing', async (t) => {
    const before = await storedToken(gateway, token);
    fake.next({ error: 503 });
    await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('refund'));
    t.match(await storedToken(gateway, token), { remain_quota: before.remain_quota, used_quota: before.used_quota });
    t.ok(before.remain_quota < startingQuota);
  });
});
