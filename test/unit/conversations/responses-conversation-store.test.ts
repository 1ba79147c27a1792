import t from 'tap';
import Keyv from 'keyv';
import type { ResponsesRequest, StreamOutput } from '../../../core/index.js';
import { responseOfTerminalEvent, ResponsesConversationStore, type StoredConversation } from '../../../core/conversations/responses-conversation-store.js';
import { MemoryStoreBackend } from '../../../core/store/memory-store-backend.js';
import responsesToChat from '../../../translators/responses-to-chat/index.js';
import { contextFor, recordedRequest, translateAll, validated } from '../translators/responses-to-chat/fixtures/read-fixtures.js';

const day = 24 * 3_600_000;
const store = () => new ResponsesConversationStore(new MemoryStoreBackend().keyv<StoredConversation>('responses-conversations'), 30 * day);
const usage = { inputTokens: 12, cachedInputTokens: 0, outputTokens: 5, reasoningTokens: 0, source: 'upstream' as const };

/** The gateway's translated answer to `request`, given as request `requestId`: a chat answer of `message` translated. */
function translatedAnswer(request: ResponsesRequest, requestId: string, message: Record<string, unknown>, finish = 'stop') {
  const body = { choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] };
  return responsesToChat.answer(body, usage, 'chat', { ...contextFor(false), requestId }, request) as { id: string; output: Record<string, unknown>[] };
}
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { statusCode: number; code: string; param?: string; message: string };
  }
  throw new Error('expected a refusal');
};

t.test('the official SDK’s tool round trip: the follow-up is the stored input and output, then its own input', async (t) => {
  const conversations = store();
  // The recorded first request, answered with a call, and its recorded follow-up that names the answer.
  const first = await conversations.expand(recordedRequest('openai-sdk-tool-round-trip', 0), 'user-1');
  const answer = translatedAnswer(first, 'rec3', { content: null, tool_calls: [{ id: 'call_rec3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, 'tool_calls');
  t.equal(answer.id, 'resp_rec3', 'the id the recorded follow-up names');
  await conversations.remember(first, answer, 'user-1');

  const followUp = recordedRequest('openai-sdk-tool-round-trip', 1);
  const expanded = await conversations.expand(followUp, 'user-1');
  t.strictSame(expanded.input, [{ type: 'message', role: 'user', content: 'What is the weather in Paris?' }, ...answer.output, ...(followUp.input as unknown[])]);
  t.equal(expanded.previous_response_id, 'resp_rec3', 'kept, for the answer to echo');
  const chat = responsesToChat.request(expanded, contextFor(false)).request;
  t.strictSame(
    chat.messages.map((message) => message.role),
    ['user', 'assistant', 'tool'],
    'the expanded request translates: the output answers the stored call',
  );
});

t.test('a follow-up of a follow-up has the whole conversation, without the instructions of earlier turns', async (t) => {
  const conversations = store();
  const first = validated({ model: 'gx-2.5-pro', instructions: 'Be brief.', input: 'One' });
  await conversations.remember(first, translatedAnswer(first, 'a', { content: 'First.' }), 'u');
  const second = await conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_a' }), 'u');
  await conversations.remember(second, translatedAnswer(second, 'b', { content: 'Second.' }), 'u');
  const third = await conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Three', previous_response_id: 'resp_b' }), 'u');
  const texts = (third.input as { content: unknown }[]).map((item) => (typeof item.content === 'string' ? item.content : (item.content as { text: string }[])[0]?.text));
  t.strictSame(texts, ['One', 'First.', 'Two', 'Second.', 'Three']);
  t.equal(third.instructions, undefined);
});

t.test("the AI SDK's item_reference is replaced by the stored output item it names", async (t) => {
  const conversations = store();
  const first = recordedRequest('ai-sdk-two-turns', 0);
  const second = recordedRequest('ai-sdk-two-turns', 1);
  const reference = (second.input as { type?: string; id?: string }[]).find((item) => item.type === 'item_reference')!;
  // The recorder answered the first request as request `rec<n>`; the reference names that answer's message.
  const requestId = reference.id!.slice('msg_'.length, reference.id!.lastIndexOf('_'));
  const answer = translatedAnswer(first, requestId, { content: 'Hello.' });
  await conversations.remember(first, answer, 'u');
  const expanded = await conversations.expand(second, 'u');
  t.strictSame((expanded.input as unknown[])[1], answer.output[0]);
  t.equal((expanded.input as unknown[]).length, 3);
});

t.test('store: false keeps nothing, so a follow-up is a 404 that says so', async (t) => {
  const conversations = store();
  const first = validated({ model: 'gx-2.5-pro', input: 'One', store: false });
  await conversations.remember(first, translatedAnswer(first, 'a', { content: 'First.' }), 'u');
  const error = await refusal(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_a' }), 'u'));
  t.equal(error.statusCode, 404);
  t.equal(error.code, 'previous_response_not_found');
  t.equal(error.param, 'previous_response_id');
  t.match(error.message, /no response "resp_a" is kept for this API key's user; it may be unknown, older than 30 days, created with store: false, or another user's/);
});

t.test("another user's response is not found, in the same words as an unknown one", async (t) => {
  const conversations = store();
  const first = validated({ model: 'gx-2.5-pro', input: 'One' });
  await conversations.remember(first, translatedAnswer(first, 'a', { content: 'First.' }), 'owner');
  const foreign = await refusal(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_a' }), 'intruder'));
  const unknown = await refusal(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_zz' }), 'intruder'));
  t.equal(foreign.code, 'previous_response_not_found');
  t.equal(foreign.message.replace('resp_a', 'ID'), unknown.message.replace('resp_zz', 'ID'));
  const reference = await refusal(conversations.expand(validated({ model: 'gx-2.5-pro', input: [{ type: 'item_reference', id: 'msg_a_0' }] }), 'intruder'));
  t.match(reference, { statusCode: 404, code: 'stored_item_not_found', param: 'input[0].id' });
});

t.test('owners are kept apart even when an owner or an id holds the separator', async (t) => {
  const conversations = store();
  const first = validated({ model: 'gx-2.5-pro', input: 'One' });
  await conversations.remember(first, translatedAnswer(first, 'x:y', { content: 'First.' }), 'a:b');
  await t.rejects(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'b:resp_x:y' }), 'a'), { code: 'previous_response_not_found' });
  await t.resolves(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_x:y' }), 'a:b'));
});

t.test('an item reference of an id the gateway did not make, or of an item the response lacks, is a 404 naming the item', async (t) => {
  const conversations = store();
  const first = validated({ model: 'gx-2.5-pro', input: 'One' });
  await conversations.remember(first, translatedAnswer(first, 'a', { content: 'First.' }), 'u');
  for (const id of ['msg_0183d662ab3856501693c32183a488190', 'fc_a_7']) {
    const error = await refusal(conversations.expand(validated({ model: 'gx-2.5-pro', input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id }] }), 'u'));
    t.match(error, { statusCode: 404, code: 'stored_item_not_found', param: 'input[1].id' }, id);
  }
});

t.test('a request without previous_response_id or references is returned as it is, and the store is not read', async (t) => {
  const records = new Keyv<StoredConversation>();
  let reads = 0;
  records.on('error', () => undefined);
  const get = records.get.bind(records);
  records.get = ((...args: Parameters<typeof get>) => {
    reads += 1;
    return get(...args);
  }) as typeof records.get;
  const request = recordedRequest('codex-plain');
  t.equal(await new ResponsesConversationStore(records, day).expand(request, 'u'), request);
  t.equal(reads, 0);
});

t.test('a record lives for the configured TTL', async (t) => {
  const entries = new Map<string, string>();
  const conversations = new ResponsesConversationStore(new Keyv<StoredConversation>({ store: entries }), 2 * day);
  const first = validated({ model: 'gx-2.5-pro', input: 'One' });
  const before = Date.now();
  await conversations.remember(first, translatedAnswer(first, 'a', { content: 'First.' }), 'u');
  const after = Date.now();
  t.equal(entries.size, 1);
  const [key, value] = [...entries][0]!;
  t.equal(key, 'keyv:u:resp_a');
  const expires = (JSON.parse(value) as { expires: number }).expires;
  t.ok(expires >= before + 2 * day && expires <= after + 2 * day, 'expires two days after it was written');
});

t.test("a translated stream's closing event gives the response to remember; a failed response is not kept", async (t) => {
  const conversations = store();
  const request = validated({ model: 'gx-2.5-pro', input: 'One', stream: true });
  const outputs = translateAll(responsesToChat.stream!('chat', contextFor(true), request), [
    { type: 'event', data: JSON.stringify({ choices: [{ index: 0, delta: { content: 'First.' }, finish_reason: 'stop' }] }), content: true },
    { type: 'usage', usage },
    { type: 'event', data: '[DONE]', content: false },
  ]);
  const responses = outputs.map(responseOfTerminalEvent).filter((response) => response !== undefined);
  t.equal(responses.length, 1, 'only the closing event carries it');
  await conversations.remember(request, responses[0], 'u');
  const expanded = await conversations.expand(validated({ model: 'gx-2.5-pro', input: 'Two', previous_response_id: 'resp_req-1' }), 'u');
  t.equal((expanded.input as unknown[]).length, 3);

  await conversations.remember(request, { id: 'resp_failed', status: 'failed', output: [] }, 'u');
  await t.rejects(conversations.expand(validated({ model: 'gx-2.5-pro', input: 'x', previous_response_id: 'resp_failed' }), 'u'), { code: 'previous_response_not_found' });
  await t.rejects(conversations.remember(request, 'not a response', 'u'), TypeError);
  const other: StreamOutput = { type: 'usage', usage };
  t.equal(responseOfTerminalEvent(other), undefined);
});
