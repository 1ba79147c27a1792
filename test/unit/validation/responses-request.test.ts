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
  const request = parse({ store: false, include: ['reasoning.encrypted_content'], text: { verbosity: 'low' } }) as Record<string, unknown>;
  t.strictSame(request.include, ['reasoning.encrypted_content']);
  t.equal(request.store, false);
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
