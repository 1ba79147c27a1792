import t from 'tap';
import type { ChatCompletionRequest, ChatMessage } from '../../../../core/index.js';
import { chatCompletionRequestSchema } from '../../../../core/contracts/chat-completion-request.js';
import { toGxRequest } from '../../../../providers/gx/chat/to-gx-request.js';
import responsesToChat from '../../../../translators/responses-to-chat/index.js';
import { contextFor, recordedRequest, validated } from './fixtures/read-fixtures.js';

const translate = (body: unknown, stream = false): ChatCompletionRequest => {
  const request = validated(body);
  const translated = responsesToChat.request(request, contextFor(stream));
  if (translated.operation !== 'chat') throw new Error(`expected chat, got ${translated.operation}`);
  // The served request is a chat request as a client would send it: the chat route's schema takes it.
  return chatCompletionRequestSchema.parse(translated.request);
};
const translateRecorded = (name: string, index = 0): ChatCompletionRequest => {
  const request = recordedRequest(name, index);
  const translated = responsesToChat.request(request, contextFor(request.stream === true));
  return chatCompletionRequestSchema.parse(translated.request);
};
const refusal = (body: unknown) => {
  try {
    translate(body);
  } catch (error) {
    return error as { statusCode: number; code: string; param?: string; message: string };
  }
  throw new Error('expected the request to be refused');
};
const base = { model: 'gx-2.5-pro', input: 'Hi' };
const roles = (messages: readonly ChatMessage[]) => messages.map((message) => message.role);
const texts = (message: ChatMessage | undefined) =>
  typeof message?.content === 'string' ? [message.content] : (message?.content ?? []).map((part) => (part.type === 'text' ? part.text : part.type));
const toolNames = (chat: ChatCompletionRequest) => (chat.tools ?? []).map((tool) => tool.function.name);

t.test("Codex's recorded request becomes a streamed chat request with its developer and user messages and its function tools", async (t) => {
  const chat = translateRecorded('codex-plain');
  t.strictSame(roles(chat.messages), ['developer', 'developer', 'user', 'user']);
  t.strictSame(texts(chat.messages[3]), ['Say hello.']);
  t.match(texts(chat.messages[0])[0], /^You are a coding agent running in the Codex CLI/);
  t.equal(chat.stream, true);
  t.strictSame(chat.stream_options, { include_usage: true }, 'a translated stream always asks for usage');
  t.equal(chat.tool_choice, 'auto');
  t.equal((chat as Record<string, unknown>).parallel_tool_calls, true);
  t.equal((chat as Record<string, unknown>).prompt_cache_key, recordedRequest('codex-plain').prompt_cache_key);
  t.ok(toolNames(chat).includes('exec_command'));
  t.ok(toolNames(chat).includes('multi_agent_v1__spawn_agent'), 'the tools of a namespace are declared as <namespace>__<name>');
  t.notOk(toolNames(chat).some((name) => name.includes('web_search')), 'the web search tool is not offered');
  for (const field of ['store', 'include', 'client_metadata', 'reasoning', 'input', 'instructions']) t.notOk(field in chat, `${field} is not sent to the chat side`);
  const execCommand = chat.tools?.find((tool) => tool.function.name === 'exec_command');
  t.equal((execCommand?.function as Record<string, unknown> | undefined)?.strict, false, 'strict is kept');
});

t.test("Codex's follow-up carries the call with its call id, its output as a tool message, and the reasoning summary as reasoning_content", async (t) => {
  const recorded = recordedRequest('codex-tool', 1);
  const items = recorded.input as Record<string, unknown>[];
  const call = items.find((item) => item.type === 'function_call')!;
  const chat = translateRecorded('codex-tool', 1);
  t.strictSame(roles(chat.messages), ['developer', 'developer', 'user', 'user', 'assistant', 'tool']);
  const assistant = chat.messages[4]!;
  t.strictSame(assistant.tool_calls, [{ id: call.call_id, type: 'function', function: { name: 'exec_command', arguments: call.arguments } }]);
  t.match(assistant.reasoning_content, /^\*\*Reading the request\*\*/);
  t.equal(assistant.content, null);
  const tool = chat.messages[5]!;
  t.equal(tool.tool_call_id, call.call_id);
  t.match(tool.content, /Process exited with code 0/);
});

t.test("the encrypted reasoning Codex sends back from another vendor is left out: only the gateway's reasoning items carry a signature", async (t) => {
  const recorded = recordedRequest('codex-tool', 1);
  t.ok((recorded.input as Record<string, unknown>[]).some((item) => item.type === 'reasoning' && typeof item.encrypted_content === 'string'), 'the recording sends one back');
  t.notOk(translateRecorded('codex-tool', 1).messages.some((message) => 'reasoning_details' in message));
});

t.test('output items sent back as input (as Codex does) give gx its signatures again: a call’s on its functionCall, the text’s on the text', async (t) => {
  const chat = translate({
    model: 'gx-3-pro-preview',
    tools: [{ type: 'function', name: 'weather' }],
    input: [
      { role: 'user', content: 'Weather in Paris?' },
      { id: 'rs_req-1_0', type: 'reasoning', encrypted_content: 'c2lnLWNhbGw=', summary: [] },
      { id: 'fc_req-1_1', type: 'function_call', call_id: 'call_paris', name: 'weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_paris', output: 'sunny' },
      // A streamed text answer: the signature after the message.
      { id: 'msg_req-2_0', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }] },
      { id: 'rs_req-2_1', type: 'reasoning', encrypted_content: 'c2lnLXRleHQ=', summary: [] },
      { role: 'user', content: 'Thanks.' },
    ],
  });
  t.strictSame(roles(chat.messages), ['user', 'assistant', 'tool', 'assistant', 'user']);
  t.strictSame(chat.messages[1]?.reasoning_details, [{ type: 'reasoning.encrypted', data: 'c2lnLWNhbGw=', id: 'call_paris' }]);
  t.strictSame(chat.messages[3]?.reasoning_details, [{ type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=' }]);
  const contents = toGxRequest(chat, { upstreamModel: 'gx-3-pro-preview', media: new Map() }).body.contents as { parts: Record<string, unknown>[] }[];
  t.strictSame(contents[1]?.parts, [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWNhbGw=' }]);
  t.strictSame(contents[3]?.parts, [{ text: 'Sunny.', thoughtSignature: 'c2lnLXRleHQ=' }]);
});

t.test('the official SDK: instructions become a system message before the string input', async (t) => {
  const chat = translateRecorded('openai-sdk-create-text');
  t.strictSame(chat.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Say hello.' },
  ]);
  t.notOk('stream' in chat, 'a JSON request does not stream');
});

t.test('an image and a JSON schema: an image_url part, response_format, the effort and the token limit', async (t) => {
  const recorded = recordedRequest('openai-sdk-image-json-schema');
  const chat = translateRecorded('openai-sdk-image-json-schema');
  const part = (recorded.input as { content: { image_url?: string }[] }[])[0]!.content[1]!;
  t.strictSame(chat.messages[0]?.content, [
    { type: 'text', text: 'What is in this image?' },
    { type: 'image_url', image_url: { url: part.image_url, detail: 'low' } },
  ]);
  const format = recorded.text?.format as { name: string; schema: unknown; strict: boolean };
  t.strictSame(chat.response_format, { type: 'json_schema', json_schema: { name: 'answer', schema: format.schema, strict: true } });
  t.equal(chat.reasoning_effort, 'low');
  t.equal(chat.max_completion_tokens, 200);
  t.equal(chat.temperature, 0.2);
});

t.test("the AI SDK's system message, input_text parts, and a step's call and output", async (t) => {
  t.strictSame(translateRecorded('ai-sdk-generate-text').messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Say hello.' }] },
  ]);
  const step = translateRecorded('ai-sdk-tool-loop', 1);
  t.strictSame(roles(step.messages), ['user', 'assistant', 'tool']);
  t.equal(step.messages[1]?.tool_calls?.[0]?.id, step.messages[2]?.tool_call_id, 'the output answers the call by its id');
  t.strictSame(step.tools?.[0]?.function.parameters, recordedRequest('ai-sdk-tool-loop').tools?.[0] && (recordedRequest('ai-sdk-tool-loop').tools![0] as { parameters: unknown }).parameters);
});

// The custom tool as a real Responses answer echoes it (vercel/ai fixture openai-custom-text-tool.1.chunks.txt).
const setHtml = { type: 'custom', description: 'Return the requested HTML verbatim as freeform text.', format: { type: 'text' }, name: 'setHtml' };
const applyPatch = { type: 'custom', name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' } };

t.test('a custom tool becomes a function of one string, input, described by its format', async (t) => {
  const chat = translate({ ...base, tools: [setHtml, applyPatch] });
  const [html, patch] = chat.tools ?? [];
  t.strictSame(html?.function, {
    name: 'setHtml',
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: 'The input as raw free-form text (not JSON).' } },
      required: ['input'],
      additionalProperties: false,
    },
    description: 'Return the requested HTML verbatim as freeform text.',
  });
  t.match((patch?.function.parameters as { properties: { input: { description: string } } }).properties.input.description, /lark grammar:\nstart: begin_patch hunk\+ end_patch$/);
});

t.test('a custom tool call and its output go back as a tool call with {"input"} arguments and a tool message', async (t) => {
  const chat = translate({
    ...base,
    tools: [setHtml],
    input: [
      { role: 'user', content: 'Make a page.' },
      { type: 'custom_tool_call', call_id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', name: 'setHtml', input: '<main>Hi</main>' },
      { type: 'custom_tool_call_output', call_id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', output: 'done' },
    ],
  });
  t.strictSame(chat.messages.slice(1), [
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', type: 'function', function: { name: 'setHtml', arguments: '{"input":"<main>Hi</main>"}' } }] },
    { role: 'tool', tool_call_id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', content: 'done' },
  ]);
});

t.test('parallel calls after an assistant message share that message, and a namespaced call uses its chat name', async (t) => {
  const chat = translate({
    ...base,
    input: [
      { role: 'user', content: 'Go.' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Calling both.', annotations: [] }] },
      { type: 'function_call', call_id: 'a', name: 'first', arguments: '{}' },
      { type: 'function_call', call_id: 'b', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: [{ type: 'input_text', text: 'one' }] },
      { type: 'function_call_output', call_id: 'b', output: 'two' },
    ],
  });
  t.strictSame(roles(chat.messages), ['user', 'assistant', 'tool', 'tool']);
  t.equal(chat.messages[1]?.content, 'Calling both.');
  t.strictSame(chat.messages[1]?.tool_calls?.map((call) => call.function.name), ['first', 'multi_agent_v1__spawn_agent']);
  t.strictSame(chat.messages[2]?.content, [{ type: 'text', text: 'one' }]);
});

t.test('tool_choice: a named function or custom tool is forced, allowed_tools narrows the tools offered', async (t) => {
  const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }, setHtml];
  t.strictSame(translate({ ...base, tools, tool_choice: { type: 'function', name: 'lookup' } }).tool_choice, { type: 'function', function: { name: 'lookup' } });
  t.strictSame(translate({ ...base, tools, tool_choice: { type: 'custom', name: 'setHtml' } }).tool_choice, { type: 'function', function: { name: 'setHtml' } });
  const narrowed = translate({ ...base, tools, tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'custom', name: 'setHtml' }] } });
  t.strictSame(toolNames(narrowed), ['setHtml']);
  t.equal(narrowed.tool_choice, 'required');
  t.equal(translate({ ...base, tools, tool_choice: 'none' }).tool_choice, 'none');
});

t.test('a request whose only tools are web search is served without tools, its auto or none mode left out', async (t) => {
  for (const toolChoice of [undefined, 'auto', 'none'] as const) {
    const chat = translate({ ...base, tools: [{ type: 'web_search' }, { type: 'web_search_preview', search_context_size: 'low' }], tool_choice: toolChoice, parallel_tool_calls: true });
    for (const field of ['tools', 'tool_choice', 'parallel_tool_calls']) t.notOk(field in chat, `${field} is not sent (tool_choice ${toolChoice ?? 'absent'})`);
  }
});

t.test('parallel_tool_calls goes along with the tools, and only with them', async (t) => {
  t.equal((translate({ ...base, tools: [setHtml], parallel_tool_calls: false }) as Record<string, unknown>).parallel_tool_calls, false);
  t.notOk('parallel_tool_calls' in translate({ ...base, parallel_tool_calls: false }));
});

t.test('log probabilities are asked for with include, their alternatives with top_logprobs', async (t) => {
  const chat = translate({ ...base, include: ['message.output_text.logprobs'], top_logprobs: 3 });
  t.equal(chat.logprobs, true);
  t.equal(chat.top_logprobs, 3);
  const without = translate({ ...base, top_logprobs: 3, include: ['reasoning.encrypted_content'] });
  t.notOk('logprobs' in without || 'top_logprobs' in without);
});

t.test('fields of the same name and meaning pass; verbosity and json_object formats too', async (t) => {
  const chat = translate({
    ...base,
    top_p: 0.5,
    user: 'u-1',
    safety_identifier: 's-1',
    prompt_cache_retention: '24h',
    service_tier: 'flex',
    text: { format: { type: 'json_object' }, verbosity: 'low' },
    metadata: { ticket: '42' },
    store: true,
    previous_response_id: 'resp_x',
    max_tool_calls: 2,
  }) as Record<string, unknown>;
  t.match(chat, { top_p: 0.5, user: 'u-1', safety_identifier: 's-1', prompt_cache_retention: '24h', service_tier: 'flex', verbosity: 'low', response_format: { type: 'json_object' } });
  for (const field of ['metadata', 'store', 'previous_response_id', 'max_tool_calls']) t.notOk(field in chat, `${field} stays on the Responses side`);
});

for (const [name, body, param, message] of [
  ['a field the chat side cannot say', { conversation: 'conv_1' }, 'conversation', /cannot be served on this model/],
  ['background', { background: true }, 'background', /background responses cannot be served/],
  ['truncation auto', { truncation: 'auto' }, 'truncation', /"auto" cannot be served/],
  ['an effort above high', { reasoning: { effort: 'xhigh' } }, 'reasoning.effort', /use none, minimal, low, medium or high/],
  ['a reasoning field without a chat form', { reasoning: { effort: 'low', context: 'all_turns' } }, 'reasoning.context', /cannot be served/],
  ['a file search tool', { tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }, 'tools[0].type', /a "file_search" tool cannot be served/],
  ['a local shell tool', { tools: [{ type: 'local_shell' }] }, 'tools[0].type', /a "local_shell" tool/],
  ['a field of a function tool without a chat form', { tools: [{ type: 'function', name: 'f', defer_loading: true }] }, 'tools[0].defer_loading', /cannot be served/],
  ['forcing a hosted tool', { tool_choice: { type: 'web_search_preview' } }, 'tool_choice.type', /forcing a "web_search_preview" tool/],
  ['forcing web search by allowed_tools', { tools: [{ type: 'web_search' }], tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] } }, 'tool_choice.tools[0]', /naming one of the tools/],
  ['requiring a tool when only web search is offered', { tools: [{ type: 'web_search' }], tool_choice: 'required' }, 'tool_choice', /"required" needs a tool the model can call/],
  ['forcing a tool that tools lacks', { tools: [setHtml], tool_choice: { type: 'function', name: 'setHtml' } }, 'tool_choice.name', /naming one of the tools/],
  ['an image by file id', { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }, 'input[0].content[0].file_id', /send the image as image_url/],
  ['an image in a system message', { input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] }, 'input[0].content[0].type', /carries only text/],
  ['an output without its call', { input: [{ type: 'function_call_output', call_id: 'call_9', output: 'x' }] }, 'input[0].call_id', /no call with call_id "call_9"/],
  ['an image in a tool output', { input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] }, 'input[1].output[0].type', /only input_text/],
  ['an item of a hosted tool', { input: [{ type: 'local_shell_call', call_id: 'c', action: {} }] }, 'input[0].type', /"local_shell_call" items cannot be served/],
  ['an unresolved item reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].id', /no stored item "msg_1"/],
  ['two tools of one chat name', { tools: [{ type: 'function', name: 'a__b' }, { type: 'namespace', name: 'a', description: 'A.', tools: [{ type: 'function', name: 'b' }] }] }, 'tools', /both named "a__b"/],
] as const) {
  t.test(`${name} is a 400 naming the client's field`, async (t) => {
    const error = refusal({ ...base, ...body });
    t.equal(error.statusCode, 400);
    t.equal(error.code, 'invalid_request');
    t.equal(error.param, param);
    t.match(error.message, message);
  });
}

t.test('a field set to null says nothing and is not refused', async (t) => {
  t.doesNotThrow(() => translate({ ...base, conversation: null, prompt: null }));
});
