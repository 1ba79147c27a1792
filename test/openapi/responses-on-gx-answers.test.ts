import t from 'tap';
import { assertOpenAiSchema } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway, sseEvents } from './every-family-gateway.js';

// Responses on gx, which the gateway translates from chat completions: the Response objects
// and every stream event it writes itself, against OpenAI's description, with nothing allowed.

const { postJson } = await startEveryFamilyGateway(t);
const weatherTool = { type: 'function', name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

t.test('a translated gx Response, with text or a function call and its signature, matches Response', async (t) => {
  const text = await postJson('/v1/responses', { model: 'gx-2.5-pro', input: 'hello', instructions: 'Be brief.' });
  const call = await postJson('/v1/responses', { model: 'gx-2.5-pro', input: 'call get_weather {"city": "Paris"}', tools: [weatherTool] });
  t.match(call.json().output, [{ type: 'reasoning', encrypted_content: String, summary: [] }, { type: 'function_call', name: 'get_weather' }]);
  const bodies = [text, call].map((response) => {
    t.equal(response.statusCode, 200);
    return response.json();
  });
  assertOpenAiSchema(t, 'Response', bodies, { what: 'translated gx Responses' });
});

t.test('every event of a translated gx Responses stream matches ResponseStreamEvent', async (t) => {
  const text = await postJson('/v1/responses', { model: 'gx-2.5-pro', input: 'stream this please', stream: true });
  const call = await postJson('/v1/responses', { model: 'gx-2.5-pro', input: 'call get_weather {"city": "Oslo"}', tools: [weatherTool], stream: true });
  const events = [...sseEvents(text), ...sseEvents(call)] as Array<{ type: string }>;
  t.ok(events.some((event) => event.type === 'response.function_call_arguments.delta'), 'the function call streams too');
  t.equal(events.filter((event) => event.type === 'response.completed').length, 2);
  assertOpenAiSchema(t, 'ResponseStreamEvent', events, { what: 'the events of translated gx Responses streams' });
});
