import { readFileSync } from 'node:fs';
import t from 'tap';
import { responsesRequestSchema } from '../../../core/contracts/responses-request.js';
import { parseClientInput } from '../../../core/validation/parse-client-input.js';

const valid = { model: 'gp-5.4', input: [{ role: 'user', content: 'Hello' }] };
const parse = (body: Record<string, unknown>) => parseClientInput(responsesRequestSchema, { ...valid, ...body });
const refusal = (body: Record<string, unknown>) => {
  try {
    parse(body);
  } catch (error) {
    return error as { statusCode: number; message: string; param?: string };
  }
  throw new Error('expected the request to be refused');
};

t.test('every field of the spec table is accepted with valid values', async (t) => {
  const request = parse({
    instructions: 'Be brief.',
    max_output_tokens: 500,
    stream: true,
    temperature: 2,
    top_p: 0,
    reasoning: { effort: 'high', summary: 'detailed' },
    tools: [
      { type: 'web_search_preview', search_context_size: 'low', user_location: { type: 'approximate', country: 'GB', region: 'London', city: 'London', timezone: 'Europe/London' } },
      { type: 'file_search', vector_store_ids: ['vs_1'], max_num_results: 5 },
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: true },
    ],
    tool_choice: { type: 'function', name: 'get_weather' },
    parallel_tool_calls: false,
    max_tool_calls: 3,
    previous_response_id: 'resp_123',
    truncation: 'auto',
    metadata: { session: 'a' },
    user: 'user-1',
  });
  t.equal(request.reasoning?.effort, 'high');
  t.equal(request.tools?.length, 3);
});

t.test('typed input items and content parts are accepted', async (t) => {
  const request = parse({
    input: [
      { type: 'input_text', text: 'A bare part' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in this image?' },
          { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
          { type: 'input_file', file_id: 'file-1' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
    ],
  });
  t.equal(Array.isArray(request.input) && request.input.length, 3);
});

t.test('unknown fields are kept for the upstream', async (t) => {
  const request = parse({ conversation: 'conv_1', context_management: [{ type: 'compaction' }] }) as Record<string, unknown>;
  t.equal(request.conversation, 'conv_1');
  t.strictSame(request.context_management, [{ type: 'compaction' }]);
});

t.test('what Codex CLI, the official SDK and the Vercel AI SDK recorded sending is accepted as sent', async (t) => {
  const recordings = ['codex-plain', 'codex-tool', 'openai-sdk-create-text', 'openai-sdk-stream-text', 'openai-sdk-tool-round-trip', 'openai-sdk-image-json-schema', 'ai-sdk-generate-text', 'ai-sdk-stream-text', 'ai-sdk-tool-loop', 'ai-sdk-two-turns'];
  for (const name of recordings) {
    const url = new URL(`../../fixtures/responses-to-chat/${name}.json`, import.meta.url);
    const { requests } = JSON.parse(readFileSync(url, 'utf8')) as { requests: { body: Record<string, unknown> }[] };
    for (const { body } of requests) t.strictSame(parseClientInput(responsesRequestSchema, body), body, name);
  }
});

t.test('the fields the clients send besides the spec table are checked too', async (t) => {
  const request = parse({
    store: false,
    include: ['reasoning.encrypted_content'],
    text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
    reasoning: { effort: 'minimal', summary: 'concise' },
    tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } }],
    tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'custom', name: 'apply_patch' }] },
    prompt_cache_key: 'k',
    safety_identifier: 's',
    service_tier: 'flex',
    top_logprobs: 5,
    input: [
      { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'custom_tool_call_output', call_id: 'c1', output: 'ok' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: null },
      { type: 'item_reference', id: 'msg_1' },
    ],
  });
  t.equal(request.store, false);
  t.equal(Array.isArray(request.input) && request.input.length, 4);
});

t.test('a string input is accepted, as the official SDK sends it', async (t) => {
  t.equal(parse({ input: 'Hi' }).input, 'Hi');
});

for (const [name, body, param, message] of [
  ['temperature above 2', { temperature: 2.5 }, 'temperature', /at most 2/],
  ['top_p below 0', { top_p: -0.1 }, 'top_p', /at least 0/],
  ['an unknown reasoning effort', { reasoning: { effort: 'extreme' } }, 'reasoning.effort', /none, minimal, low, medium, high, xhigh, max/],
  ['an unknown reasoning summary', { reasoning: { summary: 'short' } }, 'reasoning.summary', /auto, concise, detailed, none/],
  ['an unknown truncation', { truncation: 'sometimes' }, 'truncation', /disabled, auto/],
  ['a zero max_output_tokens', { max_output_tokens: 0 }, 'max_output_tokens', /at least 1/],
  ['a fractional max_tool_calls', { max_tool_calls: 1.5 }, 'max_tool_calls', /integer/],
  ['a wrong search_context_size', { tools: [{ type: 'web_search_preview', search_context_size: 'huge' }] }, 'tools[0].search_context_size', /low, medium, high/],
  ['a user_location that is not approximate', { tools: [{ type: 'web_search_preview', user_location: { type: 'exact' } }] }, 'tools[0].user_location.type', /approximate/],
  ['a file_search without vector stores', { tools: [{ type: 'file_search' }] }, 'tools[0].vector_store_ids', /required/],
  ['a function tool without a name', { tools: [{ type: 'function', parameters: {} }] }, 'tools[0].name', /required/],
  ['an unknown tool_choice string', { tool_choice: 'sometimes' }, 'tool_choice', /auto.*none/],
  ['a non-boolean parallel_tool_calls', { parallel_tool_calls: 'yes' }, 'parallel_tool_calls', /true or false/],
  ['metadata with a number value', { metadata: { a: 1 } }, 'metadata.a', /string/],
  ['an input message with an unknown role', { input: [{ role: 'robot', content: 'hi' }] }, 'input[0].role', /user, assistant, system, developer/],
  ['an input_image without a URL or file id', { input: [{ role: 'user', content: [{ type: 'input_image' }] }] }, 'input[0].content[0]', /expected image_url or file_id/],
  ['an empty input array', { input: [] }, 'input', /at least one/],
  ['a function_call without its call_id', { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id', /required/],
  ['a function_call_output of a number', { input: [{ type: 'function_call_output', call_id: 'c', output: 3 }] }, 'input[0].output', /a string or an array/],
  ['a grammar without its definition', { tools: [{ type: 'custom', name: 'p', format: { type: 'grammar', syntax: 'lark' } }] }, 'tools[0].format.definition', /required/],
  ['a json_schema format without its schema', { text: { format: { type: 'json_schema', name: 'x' } } }, 'text.format.schema', /required/],
  ['an include the API does not know', { include: ['everything'] }, 'include[0]', /reasoning.encrypted_content/],
  ['an item_reference without its id', { input: [{ type: 'item_reference' }] }, 'input[0].id', /required/],
  ['a namespace with a hosted tool in it', { tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'web_search' }] }] }, 'tools[0].tools[0]', /function or custom/],
] as const) {
  t.test(`${name} is a 400 naming the field`, async (t) => {
    const error = refusal(body);
    t.equal(error.statusCode, 400);
    t.equal(error.param, param);
    t.match(error.message, message);
  });
}

t.test('a missing model or input is a 400 that says it is required', async (t) => {
  t.throws(() => parseClientInput(responsesRequestSchema, { input: 'x' }), { statusCode: 400, message: 'model: required' });
  t.throws(() => parseClientInput(responsesRequestSchema, { model: 'gp-5.4' }), { statusCode: 400, message: /^input: / });
});

t.test('metadata over 16 keys is refused', async (t) => {
  const metadata = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v']));
  t.match(refusal({ metadata }).message, /at most 16 keys/);
});
