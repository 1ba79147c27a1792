import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { assemble, validParts, type FuzzRequest, type RequestParts } from './fuzz/fuzz-request.js';
import { fuzzRoutes, type FuzzEnvironment, type FuzzRoute } from './fuzz/fuzz-routes.js';
import { startFuzzGateway } from './fuzz/fuzz-gateway.js';
import { inputClasses } from './fuzz/input-classes.js';
import { seededRandom } from './fuzz/seeded-random.js';

// No request a client can send opens a channel's circuit unless the upstream really failed.
// Every kind of hostile request the fuzz knows is sent, each one over and over, far past the
// breaker's failure threshold (5 consecutive failures in a row, the default), on every model
// route; afterwards a clean request on each route is still answered by its one channel. A
// request that made the gateway itself fail (a stack overflow in a translation, say) once
// counted as its channel's failure, so a single key holder could take a model down for all.

const failureThreshold = 5;
const repeats = failureThreshold + 2;
const casesPerRoute = 2;

/** Sends a fuzz request to the app. */
const sender =
  (app: FastifyInstance) =>
  (request: FuzzRequest): Promise<LightMyRequestResponse> =>
    app.inject({ method: request.method as 'POST', url: request.url, headers: request.headers, ...(request.payload === undefined ? {} : { payload: request.payload }) });

/** The routes that call a channel: their body or path names a model. */
function isModelRoute(route: FuzzRoute, environment: FuzzEnvironment): boolean {
  if (route.auth !== 'api') return false;
  if (route.path.includes('{call}')) return true;
  return route.json?.(environment).model !== undefined || route.form?.(environment).fields.model !== undefined;
}

/** Deep JSON where each model route family passes it on, the requests that once failed channels. */
function deepRequests(environment: FuzzEnvironment): Array<{ name: string; request: FuzzRequest }> {
  const bearer = { authorization: `Bearer ${environment.apiKey}`, 'content-type': 'application/json' };
  const deepObjects = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  const deepArrays = '['.repeat(10_000) + ']'.repeat(10_000);
  const hi = '[{"role":"user","content":"hi"}]';
  const toolCall = (argumentsText: string) =>
    JSON.stringify({
      model: 'gx-2.5-pro',
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: argumentsText } }] },
        { role: 'tool', tool_call_id: 'c1', content: argumentsText },
      ],
    });
  const post = (url: string, payload: string): FuzzRequest => ({ method: 'POST', url, headers: bearer, payload });
  return [
    { name: 'chat, deep extra_body.gx', request: post('/v1/chat/completions', `{"model":"gx-2.5-pro","messages":${hi},"extra_body":{"gx":{"generationConfig":{"responseSchema":${deepObjects}}}}}`) },
    { name: 'chat, deep tool parameters', request: post('/v1/chat/completions', `{"model":"gx-2.5-pro","messages":${hi},"tools":[{"type":"function","function":{"name":"f","parameters":${deepArrays}}}]}`) },
    { name: 'chat, deep tool-call arguments and result', request: post('/v1/chat/completions', toolCall(deepObjects)) },
    { name: 'native generate, deep responseSchema', request: post('/v1beta/models/gx-2.5-pro:generateContent', `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"responseSchema":${deepObjects}}}`) },
    { name: 'responses, deep tool parameters', request: post('/v1/responses', `{"model":"gp-5.4","input":"hi","tools":[{"type":"function","name":"f","parameters":${deepArrays}}]}`) },
    { name: 'images, deep field', request: post('/v1/images/generations', `{"model":"gi-2","prompt":"a lighthouse","size":${deepArrays}}`) },
  ];
}

t.test('no request a client can send opens a channel’s circuit: after every hostile kind, many times over, clean requests are served', async (t) => {
  const gateway = await startFuzzGateway(t);
  const { app, environment } = gateway;
  const send = sender(app);
  const modelRoutes = fuzzRoutes.filter((route) => isModelRoute(route, environment));
  t.ok(modelRoutes.length >= 15, `${modelRoutes.length} model routes`);

  const serverErrors: string[] = [];
  const sendRepeatedly = async (name: string, request: FuzzRequest) => {
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      const response = await send(request);
      if (response.statusCode >= 500 && serverErrors.length < 8) serverErrors.push(`${name}: ${response.statusCode} ${response.payload.slice(0, 200)}`);
    }
  };

  for (const { name, request } of deepRequests(environment)) await sendRepeatedly(name, request);
  for (const inputClass of inputClasses) {
    const random = seededRandom(inputClass.seed ^ 0x0c1e0c1e);
    for (const route of modelRoutes) {
      for (let index = 0; index < casesPerRoute; index += 1) await sendRepeatedly(`${inputClass.name} on ${route.name}`, inputClass.generate(random, route, environment));
    }
  }
  t.same(serverErrors, [], 'no hostile request was answered with a 5xx');

  for (const route of modelRoutes) {
    const response = await send(assemble(validParts(route, environment)));
    t.ok(response.statusCode < 400, `a clean request on ${route.name} is served (${response.statusCode}${response.statusCode >= 400 ? ` ${response.payload.slice(0, 200)}` : ''})`);
  }
  t.same(gateway.errors.lines, [], 'nothing was logged as an error');
});

/** The model a route's valid request names: in its body, its form, or its path (`{call}` is `model:method`). */
function modelOf(parts: RequestParts): string {
  const named = parts.json?.model ?? parts.form?.fields.model ?? parts.params.call?.split(':')[0];
  if (typeof named !== 'string') throw new Error(`no model in ${parts.path}`);
  return named.replace(/^models\//, '');
}

/** The route's valid request with every mention of its model (`models/<name>` too) replaced by `name`. */
function naming(parts: RequestParts, model: string, name: string): FuzzRequest {
  const swap = (text: string) => (text === model ? name : text === `models/${model}` ? `models/${name}` : text);
  const json = parts.json === undefined ? undefined : (JSON.parse(JSON.stringify(parts.json), (_key, value: unknown) => (typeof value === 'string' ? swap(value) : value)) as Record<string, unknown>);
  const form = parts.form === undefined ? undefined : { ...parts.form, fields: Object.fromEntries(Object.entries(parts.form.fields).map(([key, value]) => [key, swap(value)])) };
  const params = Object.fromEntries(Object.entries(parts.params).map(([key, value]) => [key, key === 'call' ? value.replace(`${model}:`, `${name}:`) : value]));
  return assemble({ ...parts, params, ...(json === undefined ? {} : { json }), ...(form === undefined ? {} : { form }) });
}

t.test('made-up model names on channels serving patterns open no circuit: each is a 404 saying the upstream does not know it, and the real model is served after', async (t) => {
  const gateway = await startFuzzGateway(t, { patterns: true });
  const { app, environment } = gateway;
  const send = sender(app);
  const modelRoutes = fuzzRoutes.filter((route) => isModelRoute(route, environment) && route.method === 'POST' && !route.name.startsWith('videos remix'));
  t.ok(modelRoutes.length >= 15, `${modelRoutes.length} model routes`);

  let names = 0;
  for (const route of modelRoutes) {
    const parts = validParts(route, environment);
    const model = modelOf(parts);
    // Once first: what the request refers to (an asset still processing) is then ready.
    await send(assemble(parts));
    const answers = new Set<string>();
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      names += 1;
      const response = await send(naming(parts, model, `${model}-made-up-${names}`));
      const said = /upstream does not know this model/.test(response.payload) ? 'says the upstream does not know it' : response.payload.slice(0, 160);
      answers.add(response.statusCode === 200 ? '200' : `${response.statusCode} ${said}`);
    }
    // The qi fake serves every name, and count_tokens asks no upstream (a name the channel's pattern
    // serves is counted). The image routes answer a client's mistake as 400 (spec part 2's errors table).
    const expected = route.name.endsWith(' qi') || route.name === 'messages count_tokens' ? '200' : `${route.dialect === 'images' ? 400 : 404} says the upstream does not know it`;
    t.same([...answers], [expected], `${route.name}: ${repeats} made-up names on ${model}*`);
    const clean = await send(assemble(parts));
    t.ok(clean.statusCode < 400, `then ${model} itself on ${route.name} is served (${clean.statusCode}${clean.statusCode >= 400 ? ` ${clean.payload.slice(0, 200)}` : ''})`);
  }
  const circuits = (await app.inject({ method: 'GET', url: '/metrics' })).payload.split('\n').filter((line) => line.startsWith('gateway_circuit_state{'));
  t.same(circuits.filter((line) => !line.endsWith(' 0')), [], 'every channel’s circuit is closed');
  t.same(gateway.errors.lines, [], 'nothing was logged as an error');
});
