import t from 'tap';
import { type Usage } from '../../../../core/index.js';
import { fromOpenAiChatUsage, type OpenAiChatUsage } from '../../../../providers/shared/openai-compatible/openai-usage.js';
import { fromGxResponse } from '../../../../providers/gx/chat/from-gx-response.js';
import nativeToChat from '../../../../translators/native-to-chat/index.js';
import { context, fixtureJson, sdkRequest } from './fixtures/read-translator-fixtures.js';

interface NativeAnswer {
  candidates: { content: { role: string; parts?: Record<string, unknown>[] }; finishReason: string; index: number }[];
  usageMetadata: Record<string, number>;
  modelVersion: string;
  responseId: string;
}

const request = sdkRequest('generate-with-settings');
const answer = (body: unknown, usage: Usage) => nativeToChat.answer(body, usage, 'chat', context(), request) as NativeAnswer;
/** The usage the gp provider bills for a chat completion's `usage` object. */
const billedUsage = (body: { usage: OpenAiChatUsage }) => fromOpenAiChatUsage(body.usage);

t.test('the recorded OpenAI completion becomes one candidate with its text, STOP and the billed usage', async (t) => {
  const recorded = fixtureJson<{ id: string; usage: OpenAiChatUsage; choices: { message: { content: string } }[] }>('gp/openai-chat-completion-nonstream.json');
  const native = answer(recorded, billedUsage(recorded));
  t.strictSame(native, {
    candidates: [{ content: { parts: [{ text: recorded.choices[0]?.message.content }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 16, candidatesTokenCount: 363, totalTokenCount: 379 },
    modelVersion: 'gp-5.4',
    responseId: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU',
  });
});

t.test('a recorded completion with reasoning and a tool call gives a thought part, then the call with the chat id and its arguments as an object', async (t) => {
  const recorded = fixtureJson<{ usage: OpenAiChatUsage; choices: { message: { reasoning_content: string } }[] }>('native-to-chat/grok-chat-completion-tool-call-reasoning.json');
  const native = answer(recorded, billedUsage(recorded));
  t.strictSame(native.candidates[0]?.content.parts, [
    { text: recorded.choices[0]?.message.reasoning_content, thought: true },
    { functionCall: { id: 'call_46427107', name: 'weather', args: { location: 'San Francisco' } } },
  ]);
  t.equal(native.candidates[0]?.finishReason, 'STOP', 'a function-call turn ends with STOP, as native ones do');
  // This upstream counts reasoning (255) apart from its 26 completion tokens; the gateway bills
  // the 26, so the thoughts shown are capped at them and the totals add up to what was billed.
  t.strictSame(native.usageMetadata, { promptTokenCount: 307, candidatesTokenCount: 0, totalTokenCount: 333, cachedContentTokenCount: 244, thoughtsTokenCount: 26 });
});

t.test('native to chat and back on the gx family gives the recorded usage metadata again, count for count', async (t) => {
  const recorded = fixtureJson<{ response: { body: { usageMetadata: Record<string, number>; candidates: { content: { parts: { text: string }[] } }[] } } }>('gx/gemini-generate-thought-part.json').response.body;
  const served = fromGxResponse(recorded, { model: 'gx-2.5-flash', requestId: 'req-1', created: 1_770_000_000 });
  const native = answer(served.body, served.usage);
  const { promptTokenCount, thoughtsTokenCount, totalTokenCount } = recorded.usageMetadata;
  t.strictSame(native.usageMetadata, { promptTokenCount, candidatesTokenCount: 0, totalTokenCount, thoughtsTokenCount });
  t.strictSame(native.candidates[0]?.content.parts, [{ text: recorded.candidates[0]?.content.parts[0]?.text, thought: true }], 'the thought comes back a thought');
  t.equal(native.candidates[0]?.finishReason, 'MAX_TOKENS', 'the recorded MAX_TOKENS survives as length and back');
});

t.test('finish reasons map back: length is MAX_TOKENS, content_filter SAFETY, an unknown one OTHER', async (t) => {
  const recorded = fixtureJson<{ choices: { finish_reason: string }[]; usage: OpenAiChatUsage }>('gp/openai-chat-completion-nonstream.json');
  const finish = (reason: string) => {
    const body = structuredClone(recorded);
    (body.choices[0] as { finish_reason: string }).finish_reason = reason;
    return answer(body, billedUsage(recorded)).candidates[0]?.finishReason;
  };
  t.equal(finish('length'), 'MAX_TOKENS');
  t.equal(finish('content_filter'), 'SAFETY');
  t.equal(finish('tool_calls'), 'STOP');
  t.equal(finish('something_new'), 'OTHER');
});

t.test('a tool call whose arguments are not a JSON object is left out and the candidate finishes MALFORMED_FUNCTION_CALL', async (t) => {
  const recorded = fixtureJson<{ choices: { message: { tool_calls: { function: { arguments: string } }[] } }[]; usage: OpenAiChatUsage }>(
    'native-to-chat/grok-chat-completion-tool-call-reasoning.json',
  );
  const call = recorded.choices[0]?.message.tool_calls[0];
  if (call !== undefined) call.function.arguments = '{"location":"San Fran';
  const native = answer(recorded, billedUsage(recorded));
  t.equal(native.candidates[0]?.finishReason, 'MALFORMED_FUNCTION_CALL');
  t.notOk(native.candidates[0]?.content.parts?.some((part) => 'functionCall' in part));
});

t.test('a body that is not a chat completion is the upstream’s invalid answer; one without choices is empty', async (t) => {
  const usage = fromOpenAiChatUsage({});
  t.throws(() => answer('<html>', usage), { statusCode: 502, code: 'upstream_invalid_response' });
  t.throws(() => answer({ choices: 'none' }, usage), { statusCode: 502, code: 'upstream_invalid_response' });
  t.throws(() => answer({ choices: [] }, usage), { statusCode: 502, code: 'empty_response' });
});
