import t from 'tap';
import { type Usage } from '../../../../core/index.js';
import { fromOpenAiChatUsage, fromOpenAiTokenUsage } from '../../../../providers/shared/openai-compatible/openai-usage.js';
import { fromGxResponse } from '../../../../providers/gx/chat/from-gx-response.js';
import responsesToChat from '../../../../translators/responses-to-chat/index.js';
import { contextFor, fixtureJson, fixtureText, recordedRequest, validated } from './fixtures/read-fixtures.js';

type JsonObject = Record<string, unknown>;
interface ResponsesObject {
  id: string;
  object: string;
  status: string;
  incomplete_details: unknown;
  model: string;
  output: JsonObject[];
  usage: { input_tokens: number; input_tokens_details: JsonObject; output_tokens: number; output_tokens_details: JsonObject; total_tokens: number };
  [field: string]: unknown;
}

const request = recordedRequest('openai-sdk-create-text');
const answer = (body: unknown, usage: Usage, clientRequest = request) => responsesToChat.answer(body, usage, 'chat', contextFor(false), clientRequest) as ResponsesObject;

/** A gx `generateContent` recording as the gx chat handler answers it: its chat completion and the usage it bills. */
function gxChatAnswer(name: string) {
  const recording = fixtureJson<{ response: { body: unknown } }>(`gx/${name}`);
  return fromGxResponse(recording.response.body, { model: 'gx-2.5-pro', requestId: 'req-1', created: 1_796_000_000 });
}

t.test('a gx answer of thoughts only, cut at its token limit, is an incomplete response with a reasoning item', async (t) => {
  const { body, usage } = gxChatAnswer('gemini-generate-thought-part.json');
  const response = answer(body, usage);
  t.match(response, { id: 'resp_req-1', object: 'response', created_at: 1_796_000_000, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, model: 'gx-2.5-pro' });
  t.equal(response.output.length, 1);
  t.match(response.output[0], { id: 'rs_req-1_0', type: 'reasoning' });
  t.strictSame(response.output[0]?.summary, [{ type: 'summary_text', text: body.choices[0]?.message.reasoning_content }]);
});

t.test('a recorded OpenAI-format chat completion becomes a completed response with one message of output_text', async (t) => {
  const completion = fixtureJson('gp/openai-chat-completion-nonstream.json');
  const usage = fromOpenAiChatUsage(completion.usage as Parameters<typeof fromOpenAiChatUsage>[0]);
  const response = answer(completion, usage);
  const message = (completion.choices as { message: { content: string } }[])[0]!.message;
  t.equal(response.status, 'completed');
  t.equal(response.incomplete_details, null);
  t.strictSame(response.output, [
    { id: 'msg_req-1_0', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: message.content }], role: 'assistant' },
  ]);
  t.strictSame(answer(fixtureText('gp/openai-chat-completion-nonstream.json'), usage), response, 'the body as JSON text is read the same');
});

t.test('a recorded DeepSeek tool call: its thoughts as reasoning, the call as a function_call with the call id kept', async (t) => {
  const completion = fixtureJson('responses-to-chat/deepseek-chat-tool-call.json');
  const usage = fromOpenAiChatUsage(completion.usage as Parameters<typeof fromOpenAiChatUsage>[0]);
  const response = answer(completion, usage, validated({ model: 'deepseek-v4-flash', input: 'Weather?', tools: [{ type: 'function', name: 'weather' }] }));
  t.equal(response.status, 'completed', 'a tool call completes the response');
  t.strictSame(response.output, [
    { id: 'rs_req-1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: "The user asks about weather in San Francisco. I'll call the weather tool." }] },
    { id: 'fc_req-1_1', type: 'function_call', status: 'completed', arguments: '{"location": "San Francisco"}', call_id: 'call_00_lCIkdHRa7AKmCG3TlxXz1061', name: 'weather' },
  ]);
});

t.test('a recorded gx-3 function call: its thought signature is the encrypted_content of a reasoning item right before the call', async (t) => {
  const chunks = fixtureText('gx/gemini3-stream-function-call-thought-signature.sse')
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { candidates: { content: { parts: JsonObject[] } }[] });
  const signature = chunks[0]!.candidates[0]!.content.parts[0]!.thoughtSignature;
  // The recorded call's frame as one answer; with the recorded thought part before it, the thoughts' item carries the signature.
  const served = fromGxResponse(chunks[0], { model: 'gx-3-pro-preview', requestId: 'req-1', created: 1_796_000_000 });
  const clientRequest = validated({ model: 'gx-3-pro-preview', input: 'Weather?', tools: [{ type: 'function', name: 'weather' }] });
  const response = answer(served.body, served.usage, clientRequest);
  t.strictSame(response.output.map((item) => item.type), ['reasoning', 'function_call']);
  t.strictSame(response.output[0], { id: 'rs_req-1_0', type: 'reasoning', encrypted_content: signature, summary: [] });

  const thought = fixtureJson<{ response: { body: { candidates: { content: { parts: JsonObject[] } }[] } } }>('gx/gemini-generate-thought-part.json').response.body.candidates[0]!.content.parts[0]!;
  chunks[0]!.candidates[0]!.content.parts.unshift(thought);
  const thinking = fromGxResponse(chunks[0], { model: 'gx-3-pro-preview', requestId: 'req-1', created: 1_796_000_000 });
  const withThoughts = answer(thinking.body, thinking.usage, clientRequest);
  t.strictSame(withThoughts.output[0], { id: 'rs_req-1_0', type: 'reasoning', encrypted_content: signature, summary: [{ type: 'summary_text', text: thought.text }] });
  t.equal(withThoughts.output.length, 2);
});

t.test("a call of one of the request's custom tools comes back as a custom_tool_call with its input", async (t) => {
  const clientRequest = validated({ model: 'gx-2.5-pro', input: 'A page.', tools: [{ type: 'custom', name: 'setHtml', format: { type: 'text' } }] });
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'setHtml', arguments: '{"input":"<main>Hi</main>"}' } }] }, finish_reason: 'tool_calls' }] };
  const response = answer(body, fromOpenAiTokenUsage({ input_tokens: 1, output_tokens: 1 }), clientRequest);
  t.strictSame(response.output, [{ id: 'ctc_req-1_0', type: 'custom_tool_call', status: 'completed', call_id: 'call_7', input: '<main>Hi</main>', name: 'setHtml' }]);
});

t.test('a call of a namespaced tool names the tool and its namespace, not the chat name', async (t) => {
  const clientRequest = recordedRequest('codex-plain');
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: '', tool_calls: [{ id: 'call_8', type: 'function', function: { name: 'multi_agent_v1__wait_agent', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] };
  const response = answer(body, fromOpenAiTokenUsage({ input_tokens: 1, output_tokens: 1 }), clientRequest);
  t.match(response.output[0], { type: 'function_call', name: 'wait_agent', namespace: 'multi_agent_v1', call_id: 'call_8' });
});

t.test('a content filter stop is incomplete with that reason, and the message is marked incomplete', async (t) => {
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: 'Partial' }, finish_reason: 'content_filter' }] };
  const response = answer(body, fromOpenAiTokenUsage({ input_tokens: 1, output_tokens: 1 }));
  t.match(response, { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [{ type: 'message', status: 'incomplete' }] });
});

t.test('every billed usage field is in the Responses usage, and the billed usage is left as it was', async (t) => {
  const usage: Usage = { inputTokens: 374, cachedInputTokens: 256, outputTokens: 61, reasoningTokens: 17, source: 'upstream', inputModalities: { text: 374 } };
  const billed = structuredClone(usage);
  const response = answer(fixtureJson('responses-to-chat/deepseek-chat-tool-call.json'), usage);
  t.strictSame(response.usage, { input_tokens: 374, input_tokens_details: { cached_tokens: 256, cache_write_tokens: 0 }, output_tokens: 61, output_tokens_details: { reasoning_tokens: 17 }, total_tokens: 435 });
  t.strictSame(usage, billed, 'the usage handed in is not changed');
  t.match(fromOpenAiTokenUsage(response.usage), { inputTokens: 374, cachedInputTokens: 256, outputTokens: 61, reasoningTokens: 17 }, 'read back, the Responses usage is the billed one');
  const gx = gxChatAnswer('gemini-generate-thought-part.json');
  t.match(fromOpenAiTokenUsage(answer(gx.body, gx.usage).usage), { inputTokens: gx.usage.inputTokens, outputTokens: gx.usage.outputTokens, reasoningTokens: gx.usage.reasoningTokens, cachedInputTokens: gx.usage.cachedInputTokens });
});

t.test("the request's parameters are echoed as the real API echoes them, with its documented defaults", async (t) => {
  const clientRequest = validated({
    model: 'gx-2.5-pro',
    instructions: 'Be brief.',
    input: 'Hi',
    temperature: 0.3,
    max_output_tokens: 50,
    tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
    metadata: { ticket: '42' },
    previous_response_id: 'resp_earlier',
    reasoning: { effort: 'low', summary: 'auto' },
    text: { verbosity: 'low' },
  });
  const response = answer(fixtureJson('gp/openai-chat-completion-nonstream.json'), fromOpenAiTokenUsage({ input_tokens: 1, output_tokens: 1 }), clientRequest);
  t.match(response, {
    instructions: 'Be brief.',
    temperature: 0.3,
    top_p: null,
    max_output_tokens: 50,
    metadata: { ticket: '42' },
    previous_response_id: 'resp_earlier',
    reasoning: { effort: 'low', summary: 'auto' },
    text: { format: { type: 'text' }, verbosity: 'low' },
    tool_choice: 'auto',
    parallel_tool_calls: true,
    store: true,
    truncation: 'disabled',
    background: false,
    error: null,
  });
  t.strictSame(response.tools, [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, description: null, strict: null }]);
  const recorded = fixtureJson('gp/openai-responses-nonstream-reasoning.json');
  const ours = Object.keys(response);
  t.strictSame(ours, Object.keys(recorded).filter((key) => ours.includes(key)), 'the keys come in the order of a recorded real answer');
  t.strictSame(
    Object.keys(recorded).filter((key) => !ours.includes(key)),
    ['billing', 'user'],
    'every key of the recorded answer is there but billing, OpenAI’s account information, and user, which the client did not set',
  );
  const withUser = answer(fixtureJson('gp/openai-chat-completion-nonstream.json'), fromOpenAiTokenUsage({}), validated({ model: 'gx-2.5-pro', input: 'Hi', user: 'u-1' }));
  t.equal(withUser.user, 'u-1');
});

t.test('a body that is not a chat completion is the upstream’s fault, a 502', async (t) => {
  t.throws(() => answer({ choices: [] }, fromOpenAiTokenUsage({})), { statusCode: 502, code: 'upstream_invalid_response' });
  t.throws(() => answer('not json', fromOpenAiTokenUsage({})), { statusCode: 502, code: 'upstream_invalid_response' });
});
