import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { gxChannel, openAiChannelsOn, issueToken, scenarioGateway, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';

// JSON nested deeper than server.max_json_depth is refused with 400 json_too_deep in the
// route's dialect before any handler runs: no upstream is called and no channel is marked.
// Deep JSON once reached the providers, whose JSON.stringify threw a RangeError that counted
// as the channel's failure; five such requests opened the circuit for every tenant.

const openAiKey = 'openai-upstream-key';
const failureThreshold = 3;

interface DeepScene {
  gateway: TestApp;
  token: IssuedToken;
  gx: FakeGxUpstream;
  openAi: FakeOpenAiUpstream;
}

async function deepScene(t: Test, server: Record<string, unknown> = {}): Promise<DeepScene> {
  const gx = await startGx(t);
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const openAiChannel = openAiChannelsOn(openAi.url, openAiKey);
  const gateway = await scenarioGateway(t, {
    server,
    pricing: { 'gx-2.5-pro': { input_per_mtok: 1.25, output_per_mtok: 10 }, 'gp-5.4': { input_per_mtok: 2, output_per_mtok: 8 }, 'gi-2': { per_image: 0.04 } },
    providers: [gxChannel('gx-main', gx.url), openAiChannel('gp-main', 'gp', ['gp-5.4'], { 'gp-5.4': 'gpt-5.4' }), openAiChannel('gi-main', 'gi', ['gi-2'], { 'gi-2': 'gpt-image-2' })],
    routing: { circuit_breaker: { failure_threshold: failureThreshold, cooldown_ms: 60_000 } },
  });
  return { gateway, token: await issueToken(t, gateway), gx, openAi };
}

/** Arrays nested `depth` levels: `[[[…]]]`. */
const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Objects nested `depth` levels: `{"a":{"a":…1}}`. */
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** One route and a body of it holding `deep` (JSON text) where that route would pass it on. */
interface DeepCase {
  name: string;
  url: string;
  dialect: 'openai' | 'native' | 'images';
  body(deep: string): string;
}

const hi = '[{"role":"user","content":"hi"}]';

const deepCases: DeepCase[] = [
  { name: 'chat', url: '/v1/chat/completions', dialect: 'openai', body: (deep) => `{"model":"gx-2.5-pro","messages":${hi},"metadata":{"tree":${deep}}}` },
  {
    name: 'chat extra_body.gx',
    url: '/v1/chat/completions',
    dialect: 'openai',
    body: (deep) => `{"model":"gx-2.5-pro","messages":${hi},"extra_body":{"gx":{"generationConfig":{"responseSchema":${deep}}}}}`,
  },
  {
    name: 'native generate',
    url: '/v1beta/models/gx-2.5-pro:generateContent',
    dialect: 'native',
    body: (deep) => `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"responseSchema":${deep}}}`,
  },
  { name: 'responses', url: '/v1/responses', dialect: 'openai', body: (deep) => `{"model":"gp-5.4","input":"hi","tools":[{"type":"function","name":"f","parameters":${deep}}]}` },
  { name: 'images', url: '/v1/images/generations', dialect: 'images', body: (deep) => `{"model":"gi-2","prompt":"a lighthouse","size":${deep}}` },
];

function post(scene: DeepScene, url: string, payload: string): Promise<LightMyRequestResponse> {
  return scene.gateway.app.inject({ method: 'POST', url, headers: { ...scene.token.bearer, 'content-type': 'application/json' }, payload });
}

/** The response is a 400 refusing the depth, in the dialect's exact shape, saying the limit. */
function assertTooDeep(t: Test, response: LightMyRequestResponse, dialect: DeepCase['dialect'], limit: number): void {
  t.equal(response.statusCode, 400, 'answers 400');
  const body = response.json();
  const limitSaid = new RegExp(`more than ${limit} levels deep`);
  if (dialect === 'openai') t.strictSame(body, { error: { message: body.error.message, type: 'invalid_request_error', code: 'json_too_deep', param: null } }, 'in the OpenAI shape');
  if (dialect === 'native') t.strictSame(body, { error: { code: 400, message: body.error.message, status: 'INVALID_ARGUMENT' } }, 'in the native shape');
  if (dialect === 'images') t.strictSame(body, { error: { message: body.error.message, type: 'invalid_request_error', code: 'invalid_request' } }, "in the images table's shape");
  t.match(body.error.message, limitSaid, 'the message says the limit');
}

t.test('JSON 10,000 levels deep answers 400 json_too_deep in the dialect on every model route, and no upstream is called', async (t) => {
  const scene = await deepScene(t);
  for (const deepCase of deepCases) {
    for (const [shape, deep] of [
      ['arrays', deepArrays(10_000)],
      ['objects', deepObjects(10_000)],
    ] as const) {
      await t.test(`${deepCase.name}, nested ${shape}`, async (t) => assertTooDeep(t, await post(scene, deepCase.url, deepCase.body(deep)), deepCase.dialect, 64));
    }
  }
  t.equal(scene.gx.requests.length + scene.openAi.requests.length, 0, 'no upstream received anything');
});

t.test('repeating deep requests far past the failure threshold leaves every channel serving', async (t) => {
  const scene = await deepScene(t);
  for (let round = 0; round < failureThreshold * 3; round += 1) {
    for (const deepCase of deepCases) t.equal((await post(scene, deepCase.url, deepCase.body(deepObjects(10_000)))).statusCode, 400, `${deepCase.name}, round ${round + 1}`);
  }
  t.equal((await post(scene, '/v1/chat/completions', `{"model":"gx-2.5-pro","messages":${hi}}`)).statusCode, 200, 'chat is served');
  t.equal((await post(scene, '/v1beta/models/gx-2.5-pro:generateContent', '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}')).statusCode, 200, 'native generate is served');
  t.equal((await post(scene, '/v1/responses', '{"model":"gp-5.4","input":"hi"}')).statusCode, 200, 'responses is served');
  t.equal((await post(scene, '/v1/images/generations', '{"model":"gi-2","prompt":"a lighthouse"}')).statusCode, 200, 'images are served');
});

t.test('server.max_json_depth sets the limit: a body at it is served, one level more is refused', async (t) => {
  const scene = await deepScene(t, { max_json_depth: 5 });
  // body, messages, message, content, part: five levels.
  const atLimit = '{"model":"gx-2.5-pro","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}';
  t.equal((await post(scene, '/v1/chat/completions', atLimit)).statusCode, 200, 'five levels are served');
  const overLimit = '{"model":"gx-2.5-pro","messages":[{"role":"user","content":[{"type":"text","text":"hi","extra":{}}]}]}';
  assertTooDeep(t, await post(scene, '/v1/chat/completions', overLimit), 'openai', 5);
  t.equal(scene.gx.requests.length, 1, 'only the body within the limit reached the upstream');
});

t.test('5,000 nested functionResponse parts answer 4xx, not 500', async (t) => {
  const scene = await deepScene(t);
  const levels = 5_000;
  const nested = '{"functionResponse":{"name":"lookup","response":{"ok":true},"parts":['.repeat(levels) + '{"text":"done"}' + ']}}'.repeat(levels);
  const response = await post(scene, '/v1beta/models/gx-2.5-pro:generateContent', `{"contents":[{"role":"user","parts":[${nested}]}]}`);
  t.ok(response.statusCode >= 400 && response.statusCode < 500, `answers ${response.statusCode}`);
  t.match(response.json(), { error: { code: response.statusCode, status: 'INVALID_ARGUMENT' } }, 'in the native shape');
});

t.test('JSON inside a string is held to 64 levels: deep tool-call arguments are refused naming the field, a deep tool result goes as text', async (t) => {
  const scene = await deepScene(t);
  const conversation = (argumentsText: string, resultText: string) =>
    JSON.stringify({
      model: 'gx-2.5-pro',
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: argumentsText } }] },
        { role: 'tool', tool_call_id: 'call_1', content: resultText },
      ],
    });
  for (let round = 0; round < failureThreshold * 2; round += 1) {
    const refused = await post(scene, '/v1/chat/completions', conversation(deepObjects(10_000), '{"ok":true}'));
    t.equal(refused.statusCode, 400, `deep arguments answer 400 (round ${round + 1})`);
    t.match(refused.json().error, { code: 'json_too_deep', param: 'messages[1].tool_calls[0].function.arguments', message: /more than 64 levels deep/ });
  }
  const served = await post(scene, '/v1/chat/completions', conversation('{"q":"x"}', deepArrays(10_000)));
  t.equal(served.statusCode, 200, 'a deep tool result is sent on as text and answered');
  t.equal((await post(scene, '/v1/chat/completions', `{"model":"gx-2.5-pro","messages":${hi}}`)).statusCode, 200, 'the channel still serves');
});
