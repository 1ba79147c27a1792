import t from 'tap';
import { tokensPerImage } from '../../core/billing/inline-media-tokens.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { promptImageTokens } from '../fakes/gx/generate-answer.js';
import {
  gxChannel,
  issueToken,
  lastRequestRecord,
  postChat,
  postNative,
  scenarioGateway,
  scenarioPricing,
  sseData,
  startGx,
  storedToken,
  streamedText,
  waitForToken,
} from '../helpers/gateway-scenario.js';

// gx-2.5-pro costs 1.25 USD per million input tokens and 10 per million output tokens: 0.625
// and 5 quota units a token at 500000 units per USD, integers in thousandths of a unit.
const gxUnits = (prompt: number, completion: number): number => Math.ceil((prompt * 625 + completion * 5000) / 1000);

// About 3 MB of base64: read as text, a quarter of its bytes would be some 786,000 tokens, about
// 491,000 units at gx-2.5-pro's input price.
const imageBase64 = Buffer.alloc(2_300_000, 7).toString('base64');
const imageMessages = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'describe this' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${imageBase64}` } },
    ],
  },
];
const imageChat = { model: 'gx-2.5-pro', max_tokens: 100, messages: imageMessages };
const imageContents = {
  contents: [{ role: 'user', parts: [{ text: 'describe this' }, { inlineData: { mimeType: 'image/png', data: imageBase64 } }] }],
  generationConfig: { maxOutputTokens: 100 },
};

// The estimate is about 1500 prompt tokens (the text, and 1445 for the image) and 100 output
// tokens: some 1,450 units. The real cost, 258 image tokens and a short echo, is far less.
const quotaForTheRealCost = 5000;

t.test('a request with a 3 MB inline image reserves by the per-image figure, not by its bytes', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });

  t.test('chat completions: a token whose quota fits the real cost is answered, not refused with 402', async (t) => {
    const token = await issueToken(t, gateway, { remain_quota: quotaForTheRealCost });
    const response = await postChat(gateway, token, imageChat);
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.payload);
    const upstreamParts = (fake.requests.at(-1)!.json as { contents: Array<{ parts: Array<Record<string, any>> }> }).contents[0]!.parts;
    t.equal(upstreamParts.find((part) => part.inlineData !== undefined)?.inlineData.data, imageBase64, 'the upstream got the whole image');
    const usage = response.json().usage as { prompt_tokens: number; completion_tokens: number };
    t.ok(usage.prompt_tokens >= promptImageTokens, `the upstream counted ${usage.prompt_tokens} prompt tokens, the image at ${promptImageTokens}`);
    const units = gxUnits(usage.prompt_tokens, usage.completion_tokens);
    t.match(await storedToken(gateway, token), { remain_quota: quotaForTheRealCost - units, used_quota: units }, `billed ${units} units from the upstream's usage`);
  });

  t.test('the native route: a gx inlineData part likewise', async (t) => {
    const token = await issueToken(t, gateway, { remain_quota: quotaForTheRealCost });
    const response = await postNative(gateway, token, 'gx-2.5-pro:generateContent', imageContents);
    t.equal(response.statusCode, 200, response.statusCode === 200 ? 'answered' : response.payload);
    const usage = response.json().usageMetadata as { promptTokenCount: number; candidatesTokenCount: number };
    t.match(await storedToken(gateway, token), { used_quota: gxUnits(usage.promptTokenCount, usage.candidatesTokenCount) });
  });

  t.test('a token that cannot cover even the per-image figure is still refused before any upstream call', async (t) => {
    const token = await issueToken(t, gateway, { remain_quota: gxUnits(tokensPerImage, 0) });
    const upstreamRequests = fake.requests.length;
    const response = await postChat(gateway, token, imageChat);
    t.equal(response.statusCode, 402);
    t.match(response.json(), { error: { code: 'insufficient_quota' } });
    t.equal(fake.requests.length, upstreamRequests, 'no upstream call');
  });
});

t.test('with 100,000 tokens per minute, the same request passes the rate limit instead of a 429', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)], rate_limits: { tokens: { tokens_per_minute: 100_000 } } });
  const token = await issueToken(t, gateway);
  // A request larger than the whole minute still passes on a full bucket, but empties it: read
  // as text (some 786,000 tokens) the image let the first request through and refused the next.
  for (let count = 1; count <= 3; count += 1) {
    const response = await postChat(gateway, token, imageChat);
    t.equal(response.statusCode, 200, response.statusCode === 200 ? `request ${count} is answered` : response.payload);
  }
  const native = await postNative(gateway, token, 'gx-2.5-pro:generateContent', imageContents);
  t.equal(native.statusCode, 200, 'and the native one');
});

t.test('a stream that breaks off without usage is billed on at most the output it reserved for (max_tokens)', async (t) => {
  const upstreamKey = 'gp-upstream-key';
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  const channel = { name: 'gp-main', plugin: 'gp', base_url: fake.url, api_key: upstreamKey, models: ['gp-nano'], model_map: { 'gp-nano': 'gpt-4.1-nano' } };
  // gp models cost 2 USD per million input tokens and 8 per million output tokens: 1 quota unit an input token, 4 an output token.
  const pricing = { ...scenarioPricing, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8 } };
  const gateway = await scenarioGateway(t, { pricing, providers: [{ ...channel, groups: ['default'] }] });
  const token = await issueToken(t, gateway);
  const messages = [{ role: 'user', content: 'tell me a long story' }];
  // The role-only event, then one event a word: the socket is reset before the usage event.
  fake.next({ text: 'alpha bravo charlie delta echo foxtrot golf hotel india juliet', resetAfterChunks: 8 });
  const response = await postChat(gateway, token, { model: 'gp-nano', stream: true, max_tokens: 5, messages });
  t.equal(response.statusCode, 200);
  const sent = streamedText(response.payload);
  t.equal(sent, 'alpha bravo charlie delta echo foxtrot golf ', 'seven words reached the client');
  t.ok(sent.length > 20, `${sent.length} characters: ${Math.ceil(sent.length / 4)} tokens at four characters a token`);
  t.match(JSON.parse(sseData(response.payload).at(-1)!), { error: {} }, 'the stream ended with an in-band error');

  const promptTokens = Math.ceil(Buffer.byteLength(JSON.stringify(messages)) / 4);
  const stored = await waitForToken(gateway, token, (current) => current.used_quota > 0);
  t.equal(stored.used_quota, promptTokens + 5 * 4, `billed the prompt estimate (${promptTokens} units) and 5 output tokens, not ${Math.ceil(sent.length / 4)}`);
  t.match(lastRequestRecord(gateway), { usage_source: 'estimated' });
});
