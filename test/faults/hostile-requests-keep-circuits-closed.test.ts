import type { LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { assemble, validParts, type FuzzRequest } from './fuzz/fuzz-request.js';
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
  const send = (request: FuzzRequest): Promise<LightMyRequestResponse> =>
    app.inject({ method: request.method as 'POST', url: request.url, headers: request.headers, ...(request.payload === undefined ? {} : { payload: request.payload }) });
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
