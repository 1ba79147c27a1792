import t from 'tap';
import { GatewayError, type NativeGenerateRequest } from '../../../../core/index.js';
import { nativeGenerateRequestSchema } from '../../../../core/contracts/native-requests.js';
import nativeToChat from '../../../../translators/native-to-chat/index.js';
import { context, sdkRequest, sdkRequests } from './fixtures/read-translator-fixtures.js';

const translate = (request: NativeGenerateRequest, stream = false) => nativeToChat.request(request, context(stream));
const chat = (request: NativeGenerateRequest, stream = false) => translate(request, stream).request;

/** The 400 a translation throws, for checking its message and param. */
function refusal(request: unknown): GatewayError {
  try {
    translate(nativeGenerateRequestSchema.parse(request));
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('the translation did not refuse the request');
}

const hello = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };

t.test('the recorded SDK call with every generation setting becomes the same chat request, topK and safety settings left out', async (t) => {
  const translated = translate(sdkRequest('generate-with-settings'));
  t.equal(translated.operation, 'chat');
  t.strictSame(translated.request, {
    model: 'gp-5.4',
    messages: [
      { role: 'system', content: 'Answer in one line.' },
      { role: 'user', content: 'Count to three.' },
    ],
    temperature: 0.2,
    top_p: 0.9,
    max_completion_tokens: 256,
    stop: ['STOP'],
    seed: 7,
    presence_penalty: 0.5,
    frequency_penalty: 0.25,
    reasoning_effort: 'low',
  });
});

t.test('a recorded stream with an agent’s settings asks for a stream with usage, its JSON Schema tools as they are', async (t) => {
  t.strictSame(chat(sdkRequest('stream-agent-settings'), true), {
    model: 'gp-5.4',
    messages: [
      { role: 'system', content: 'You are a coding agent.\nBe concise.' },
      { role: 'user', content: 'List the files here.' },
    ],
    temperature: 1,
    top_p: 0.95,
    reasoning_effort: 'high',
    tools: [
      {
        type: 'function',
        function: {
          name: 'list_directory',
          description: 'Lists the names of files in a directory.',
          parameters: { type: 'object', properties: { path: { type: 'string', description: 'the directory' } }, required: ['path'] },
        },
      },
    ],
    stream: true,
    stream_options: { include_usage: true },
  });
});

t.test('a recorded chat session replays the model’s call without an id: the call and its response share the derived id call_1_0', async (t) => {
  const [first, second] = sdkRequests('chat-function-round-trip');
  t.ok(first !== undefined && second !== undefined, 'two requests recorded');
  const translated = chat(second as NativeGenerateRequest);
  t.strictSame(translated.messages, [
    { role: 'user', content: 'What is the weather in San Francisco?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1_0', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }] },
    { role: 'tool', tool_call_id: 'call_1_0', content: '{"temperature":18,"unit":"celsius"}' },
  ]);
  t.strictSame(translated.tool_choice, { type: 'function', function: { name: 'weather' } }, 'ANY with one allowed name forces that function');
  t.strictSame(
    translated.tools?.[0]?.function.parameters,
    {
      type: 'object',
      properties: { location: { type: 'string', description: 'the city' }, unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit'] } },
      required: ['location'],
    },
    'the upper-case native schema becomes JSON Schema, nullable folded into the type',
  );
  t.strictSame(chat(first as NativeGenerateRequest).messages, [{ role: 'user', content: 'What is the weather in San Francisco?' }]);
});

t.test('a recorded round trip with ids keeps them, answers the call before the user’s text, and sends the response object as JSON', async (t) => {
  t.strictSame(chat(sdkRequest('stream-function-round-trip-with-ids'), true).messages, [
    { role: 'user', content: 'Read notes.txt' },
    { role: 'assistant', content: 'Reading it.', tool_calls: [{ id: 'call_read_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] },
    { role: 'tool', tool_call_id: 'call_read_1', content: '{"output":"buy milk"}' },
    { role: 'user', content: 'Summarize it.' },
  ]);
});

t.test('a response whose id names no call (Gemini CLI’s own id for a call that had none) answers the first unanswered call of its name', async (t) => {
  const request = sdkRequest('chat-function-round-trip');
  const reply = request.contents[2]?.parts[0] as { functionResponse: Record<string, unknown> };
  reply.functionResponse.id = 'weather-1770000000000-4f2a';
  const messages = chat(request).messages;
  t.strictSame(messages.at(-1), { role: 'tool', tool_call_id: 'call_1_0', content: '{"temperature":18,"unit":"celsius"}' });
});

t.test('a function response with no call left to answer is a 400 naming it', async (t) => {
  const error = refusal({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'weather', response: {} } }] }] });
  t.equal(error.statusCode, 400);
  t.equal(error.param, 'contents[0].parts[0].functionResponse');
  t.match(error.message, /no functionCall named "weather"/);
  const twice = refusal({
    contents: [
      { role: 'model', parts: [{ functionCall: { name: 'weather', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: {} } }, { functionResponse: { name: 'weather', response: {} } }] },
    ],
  });
  t.equal(twice.param, 'contents[1].parts[1].functionResponse', 'one response per call');
});

t.test('JSON answers: responseSchema becomes a json_schema response format without the native ordering hint; responseJsonSchema goes as it is', async (t) => {
  t.strictSame(chat(sdkRequest('json-response-schema')).response_format, {
    type: 'json_schema',
    json_schema: { name: 'response', schema: { type: 'object', properties: { name: { type: 'string' }, steps: { type: 'array', items: { type: 'string' } } }, required: ['name'] } },
  });
  t.strictSame(chat(sdkRequest('json-response-json-schema')).response_format, {
    type: 'json_schema',
    json_schema: { name: 'response', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } },
  });
  t.strictSame(chat({ ...hello, generationConfig: { responseMimeType: 'application/json' } }).response_format, { type: 'json_object' });
});

t.test('a recorded inline image becomes a data URI image part, an image by URI an image_url', async (t) => {
  t.strictSame(chat(sdkRequest('inline-image-and-file-uri')).messages, [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' } },
        { type: 'image_url', image_url: { url: 'https://example.com/photo.jpg' } },
      ],
    },
  ]);
});

t.test('inline audio and documents become input_audio and file parts; a document by URI is a 400 that says to send its bytes', async (t) => {
  const parts = [
    { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
    { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=', displayName: 'report.pdf' } },
  ];
  t.strictSame(chat({ contents: [{ role: 'user', parts }] }).messages, [
    {
      role: 'user',
      content: [
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' } },
      ],
    },
  ]);
  const error = refusal({ contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } }] }] });
  t.equal(error.param, 'contents[0].parts[0].fileData');
  t.match(error.message, /inlineData/);
});

t.test('thought parts and signatures of earlier model turns are left out', async (t) => {
  const request = {
    contents: [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'pondering', thought: true }, { text: 'Hello', thoughtSignature: 'c2ln' }, { text: '!' }] },
      { role: 'model', parts: [{ text: 'only a thought', thought: true }] },
      { role: 'user', parts: [{ text: 'bye' }] },
    ],
  };
  t.strictSame(chat(nativeGenerateRequestSchema.parse(request)).messages, [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello!' },
    { role: 'user', content: 'bye' },
  ]);
});

t.test('thinking budgets map to the effort of their band; -1 and includeThoughts alone set none', async (t) => {
  const effort = (thinkingConfig: Record<string, unknown>) => chat(nativeGenerateRequestSchema.parse({ ...hello, generationConfig: { thinkingConfig } })).reasoning_effort;
  t.equal(effort({ thinkingBudget: 0 }), 'none');
  t.equal(effort({ thinkingBudget: 512 }), 'minimal');
  t.equal(effort({ thinkingBudget: 1024 }), 'low');
  t.equal(effort({ thinkingBudget: 8192 }), 'medium');
  t.equal(effort({ thinkingBudget: 24576 }), 'high');
  t.equal(effort({ thinkingBudget: -1 }), undefined);
  t.equal(effort({ includeThoughts: true }), undefined);
  t.equal(effort({ thinkingLevel: 'MINIMAL' }), 'minimal');
});

t.test('function calling modes map to tool choices; allowedFunctionNames keeps only the tools it names', async (t) => {
  const declarations = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
  const choice = (functionCallingConfig: Record<string, unknown>) =>
    chat(nativeGenerateRequestSchema.parse({ ...hello, tools: [{ functionDeclarations: declarations }], toolConfig: { functionCallingConfig } }));
  t.equal(choice({ mode: 'AUTO' }).tool_choice, 'auto');
  t.equal(choice({ mode: 'NONE' }).tool_choice, 'none');
  t.equal(choice({ mode: 'ANY' }).tool_choice, 'required');
  const some = choice({ mode: 'ANY', allowedFunctionNames: ['a', 'c'] });
  t.equal(some.tool_choice, 'required');
  t.strictSame(some.tools?.map((tool) => tool.function.name), ['a', 'c']);
  t.equal(refusal({ ...hello, tools: [{ functionDeclarations: declarations }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['z'] } } }).param, 'toolConfig.functionCallingConfig.allowedFunctionNames');
  t.notOk('tool_choice' in chat(nativeGenerateRequestSchema.parse({ ...hello, toolConfig: { functionCallingConfig: { mode: 'ANY' } } })), 'no tools, no tool choice');
});

t.test('what chat completions cannot say is a 400 that names the native field', async (t) => {
  const cases: [unknown, string][] = [
    [{ ...hello, tools: [{ googleSearch: {} }] }, 'tools[0].googleSearch'],
    [{ ...hello, tools: [{ functionDeclarations: [{ name: 'f' }], codeExecution: {} }] }, 'tools[0].codeExecution'],
    [{ ...hello, cachedContent: 'cachedContents/abc' }, 'cachedContent'],
    [{ ...hello, generationConfig: { candidateCount: 2 } }, 'generationConfig.candidateCount'],
    [{ ...hello, generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }, 'generationConfig.responseModalities'],
    [{ ...hello, generationConfig: { speechConfig: { voiceConfig: {} } } }, 'generationConfig.speechConfig'],
    [{ ...hello, generationConfig: { responseMimeType: 'text/x.enum' } }, 'generationConfig.responseMimeType'],
    [{ ...hello, generationConfig: { topP: 1.5 } }, 'generationConfig.topP'],
    [{ contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    [{ contents: [{ role: 'user', parts: [{ executableCode: { code: 'print(1)' } }] }] }, 'contents[0].parts[0]'],
    [{ ...hello, systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'systemInstruction.parts[0]'],
    [{ contents: [{ role: 'user', parts: [{ text: 'pondering', thought: true }] }] }, 'contents'],
  ];
  for (const [request, param] of cases) {
    const error = refusal(request);
    t.match(error, { statusCode: 400, code: 'invalid_request', param }, param);
    t.ok(error.message.startsWith(`${param}: `), `the message starts with the field: ${error.message}`);
  }
});
