import t from 'tap';
import { assertOpenAiSchema, openAiSchemaAllowances as allowances } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway, sseEvents } from './every-family-gateway.js';

// Responses on gp, JSON and every stream event, against OpenAI's description. The gp family
// passes the upstream's answer on, so what real OpenAI answers differ in (recorded in
// test/fixtures/gp/) is allowed by name; the gateway's own in-band error follows that recording.

const { postJson, upstreams } = await startEveryFamilyGateway(t);
const lookupTool = { type: 'function', name: 'lookup', description: 'Looks a word up', parameters: { type: 'object', properties: { q: { type: 'string' } } } };
/** What every Response of the gp fake, like every recorded one, differs in. */
const asRecorded = [allowances.responseUserNull, allowances.responseUsageWithoutCacheWrites];

t.test('a gp Response, with text, reasoning or a function call, matches Response', async (t) => {
  const text = await postJson('/v1/responses', { model: 'gp-5.4', input: 'hello', instructions: 'Be brief.' });
  const reasoning = await postJson('/v1/responses', { model: 'gp-5.4', input: 'What is 2+2?', reasoning: { effort: 'low', summary: 'auto' } });
  upstreams.openai.fake.next({ functionCall: { name: 'lookup', arguments: { q: 'weather' } } });
  const call = await postJson('/v1/responses', { model: 'gp-5.4', input: 'weather?', tools: [lookupTool] });
  t.match(call.json().output, [{ type: 'function_call', name: 'lookup' }]);
  const bodies = [text, reasoning, call].map((response) => {
    t.equal(response.statusCode, 200);
    return response.json();
  });
  assertOpenAiSchema(t, 'Response', bodies, { what: 'gp Responses', allow: asRecorded });
});

t.test('every event of a gp Responses stream matches ResponseStreamEvent', async (t) => {
  const text = await postJson('/v1/responses', { model: 'gp-5.4', input: 'stream this please', stream: true });
  upstreams.openai.fake.next({ functionCall: { name: 'lookup', arguments: { q: 'snow' } } });
  const call = await postJson('/v1/responses', { model: 'gp-5.4', input: 'snow?', tools: [lookupTool], stream: true });
  const events = [...sseEvents(text), ...sseEvents(call)] as Array<{ type: string }>;
  t.ok(events.some((event) => event.type === 'response.function_call_arguments.delta'), 'the function call streams too');
  t.equal(events.filter((event) => event.type === 'response.completed').length, 2);
  assertOpenAiSchema(t, 'ResponseStreamEvent', events, { what: 'the events of gp Responses streams', allow: [...asRecorded, allowances.responseUsageNullUntilDone] });
});

t.test('a stream the upstream fails in-band ends with the gateway’s error event, written as the recorded one', async (t) => {
  upstreams.openai.fake.next({ streamErrorAfterContent: true });
  const response = await postJson('/v1/responses', { model: 'gp-5.4', input: 'stream this and fail', stream: true });
  const events = sseEvents(response) as Array<{ type: string }>;
  t.match(events.at(-1), { type: 'error', error: { type: String, code: String, message: String } });
  assertOpenAiSchema(t, 'ResponseStreamEvent', events, {
    what: 'the events of a failed gp Responses stream',
    allow: [allowances.responseUserNull, allowances.responseUsageNullUntilDone, allowances.responseErrorEventNested],
  });
});

t.test('the gateway’s own in-band error, after a Responses stream started, is written as the recorded error event', async (t) => {
  upstreams.openai.fake.next({ resetAfterChunks: 4 });
  const response = await postJson('/v1/responses', { model: 'gp-5.4', input: 'stream this and break', stream: true });
  t.equal(response.statusCode, 200, 'the stream had started');
  const events = sseEvents(response) as Array<{ type: string; sequence_number: number }>;
  const error = events.at(-1)!;
  t.match(error, { type: 'error', sequence_number: events.length - 1 });
  assertOpenAiSchema(t, 'ResponseStreamEvent', events, {
    what: 'the events of a gp Responses stream the upstream cut',
    allow: [allowances.responseUserNull, allowances.responseUsageNullUntilDone, allowances.responseErrorEventNested],
  });
});
