import type { MessagesRequest } from '../../../../core/index.js';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { type GatewayError } from '../../../../core/index.js';
import { fromOpenAiChatUsage } from '../../../../providers/shared/openai-compatible/openai-usage.js';
import { fromGxResponse } from '../../../../providers/gx/chat/from-gx-response.js';
import translator from '../../../../translators/messages-to-chat/index.js';
import { assembleResponse, fixtureJson, sseFixtureChunks } from '../../providers/gx/fixtures/read-gx-fixtures.js';
import { context } from './fixtures/messages-fixtures.js';

// The translator answers the same whatever the client asked; a request as Claude Code's plain prompt is enough.
const clientRequest: MessagesRequest = { model: 'gx-2.5-pro', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }] };

// Served answers: gp's chat completion is the recorded OpenAI body, passed through as text;
// gx's is what the gx provider makes of a recorded native answer.

const gpRecording = readFileSync(new URL('../../../fixtures/gp/openai-chat-completion-nonstream.json', import.meta.url), 'utf8');
const gxServed = (native: unknown) => fromGxResponse(native, { model: 'gx-3-pro-preview', requestId: 'req-gx', created: 1_764_650_000 });
const answer = (body: unknown, usage: Parameters<typeof translator.answer>[1], model = 'gx-2.5-pro') =>
  translator.answer(body, usage, 'chat', context({ model }), clientRequest) as Record<string, any>;

t.test('a gp chat completion becomes a Messages answer with one text block', async (t) => {
  // gp answers the upstream's bytes; the pipeline parses them before the translator reads them.
  const recorded = JSON.parse(gpRecording);
  const usage = fromOpenAiChatUsage(recorded.usage);
  const message = answer(recorded, usage, 'gp-nano');
  t.strictSame(message, {
    id: 'msg_0b6f6f0e5a384bd49a532f6f3c6b1d7e',
    type: 'message',
    role: 'assistant',
    model: 'gp-nano',
    content: [{ type: 'text', text: recorded.choices[0].message.content }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 16,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 363,
      output_tokens_details: { thinking_tokens: 0 },
      service_tier: 'standard',
    },
  });
});

t.test('a gx answer of thoughts cut off by the token limit becomes a thinking block and max_tokens', async (t) => {
  const served = gxServed(fixtureJson<{ response: { body: unknown } }>('gemini-generate-thought-part.json').response.body);
  const message = answer(served.body, served.usage);
  t.equal(message.stop_reason, 'max_tokens');
  t.strictSame(message.content, [{ type: 'thinking', thinking: served.body.choices[0]!.message.reasoning_content, signature: '' }], 'no text yet; gx signed none of it');
  t.equal(message.usage.output_tokens_details.thinking_tokens, 19, "the recording's thoughtsTokenCount");
  t.equal(message.usage.output_tokens, served.usage.outputTokens);
});

/** The thought signature of the recorded gx-3 function call (fixture gemini3-stream-function-call-thought-signature.sse). */
const recordedCallSignature = () =>
  ((sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')[0]!.candidates as Record<string, any>[])[0]!.content.parts[0].thoughtSignature as string);

t.test('a gx function call becomes a tool_use block with the call id and its arguments, after a thinking block with its signature', async (t) => {
  const served = gxServed(assembleResponse(sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')));
  const call = served.body.choices[0]!.message.tool_calls![0]!;
  const message = answer(served.body, served.usage);
  t.equal(message.stop_reason, 'tool_use');
  t.strictSame(
    message.content,
    [
      { type: 'thinking', thinking: '', signature: recordedCallSignature() },
      { type: 'tool_use', id: call.id, name: 'weather', input: { location: 'San Francisco' } },
    ],
    'the recorded signature, whole, on a thinking block without text (as Anthropic writes thoughts it does not show)',
  );
  t.equal(message.usage.input_tokens, 29);
  t.equal(message.usage.output_tokens_details.thinking_tokens, 804);
});

t.test('recorded gx thoughts before a signed call are one thinking block that carries the call’s signature', async (t) => {
  // The recorded thought part, then the recorded signed call, in one candidate: how gx answers a call it thought about.
  const thought = fixtureJson<{ response: { body: Record<string, any> } }>('gemini-generate-thought-part.json').response.body.candidates[0].content.parts[0];
  const native = assembleResponse(sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')) as Record<string, any>;
  native.candidates[0].content.parts.unshift(thought);
  const served = gxServed(native);
  const message = answer(served.body, served.usage);
  t.strictSame(
    message.content.map((block: Record<string, unknown>) => ({ type: block.type, thinking: block.thinking, signature: block.signature })),
    [
      { type: 'thinking', thinking: thought.text, signature: recordedCallSignature() },
      { type: 'tool_use', thinking: undefined, signature: undefined },
    ],
  );
});

t.test('a signature of the text goes on a thinking block before the text; a gp answer has none, and a text signature without text is left out', async (t) => {
  const usage = fromOpenAiChatUsage(JSON.parse(gpRecording).usage);
  const withDetails = (message: Record<string, unknown>) => ({ choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }] });
  t.strictSame(answer(withDetails({ content: 'Hello.', reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2ln' }] }), usage).content, [
    { type: 'thinking', thinking: '', signature: 'c2ln' },
    { type: 'text', text: 'Hello.' },
  ]);
  t.strictSame(
    answer(withDetails({ content: '', reasoning_content: 'Hm.', reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2ln' }, { type: 'reasoning.text', text: 'not carried' }] }), usage).content,
    [{ type: 'thinking', thinking: 'Hm.', signature: '' }],
  );
  t.notOk(JSON.stringify(answer(JSON.parse(gpRecording), usage, 'gp-nano').content).includes('"thinking"'), 'gp signs nothing, so it gets no thinking block');
});

t.test('the id is stable for one request and differs between requests', async (t) => {
  const served = gxServed(fixtureJson<{ response: { body: unknown } }>('gemini-generate-thought-part.json').response.body);
  const first = translator.answer(served.body, served.usage, 'chat', context({ requestId: 'req-1' }), clientRequest) as { id: string };
  t.equal((translator.answer(served.body, served.usage, 'chat', context({ requestId: 'req-1' }), clientRequest) as { id: string }).id, first.id);
  t.not((translator.answer(served.body, served.usage, 'chat', context({ requestId: 'req-2' }), clientRequest) as { id: string }).id, first.id);
  t.match(first.id, /^msg_[A-Za-z0-9]+$/);
});

t.test('a served body that is not a chat completion, or has no choice, is a 502', async (t) => {
  const usage = fromOpenAiChatUsage(JSON.parse(gpRecording).usage);
  for (const body of ['<html>bad gateway</html>', { object: 'chat.completion' }, { choices: [] }, null]) {
    let failure: GatewayError | undefined;
    try {
      answer(body, usage);
    } catch (error) {
      failure = error as GatewayError;
    }
    t.equal(failure?.statusCode, 502, JSON.stringify(body));
  }
});
