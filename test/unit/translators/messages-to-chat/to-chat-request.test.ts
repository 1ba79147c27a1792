import t from 'tap';
import type { ChatCompletionRequest, GatewayError } from '../../../../core/index.js';
import { chatCompletionRequestSchema } from '../../../../core/contracts/chat-completion-request.js';
import { toGxRequest } from '../../../../providers/gx/chat/to-gx-request.js';
import translator from '../../../../translators/messages-to-chat/index.js';
import { claudeCodeBodies, context, sdkBody, validated } from './fixtures/messages-fixtures.js';

type JsonObject = Record<string, any>;

const translate = (body: unknown, stream = false): ChatCompletionRequest & JsonObject => {
  const translated = translator.request(validated(body), context({ stream }));
  t.equal(translated.operation, 'chat');
  return translated.request as ChatCompletionRequest & JsonObject;
};
const refusal = (body: unknown): GatewayError => {
  try {
    translate(body);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('the request was translated');
};

t.test("Claude Code's first request becomes a chat request the gateway's chat schema accepts", async (t) => {
  const [recorded] = claudeCodeBodies('plain');
  const chat = translate(recorded, true);
  t.strictSame(chatCompletionRequestSchema.parse(chat), chat, 'a valid chat completion request, as a client would send it');
  t.strictSame(Object.keys(chat).sort(), ['max_completion_tokens', 'messages', 'model', 'reasoning_effort', 'stream', 'stream_options', 'tools'].sort(), 'metadata, thinking display and context_management are not sent');
  t.equal(chat.model, 'gx-2.5-pro');
  t.equal(chat.max_completion_tokens, 32000);
  t.strictSame(chat.stream_options, { include_usage: true }, 'a stream asks for usage');
  t.equal(chat.reasoning_effort, 'high', 'output_config.effort');
  t.notOk('extra_body' in chat, 'adaptive thinking with display omitted says nothing beyond the effort');

  const system = recorded!.system as { text: string }[];
  t.strictSame(chat.messages[0], { role: 'system', content: system.map((block) => ({ type: 'text', text: block.text })) }, 'the system blocks, cache breakpoints left out');
  t.equal(chat.messages[1]?.role, 'user');
  t.strictSame(chat.messages[2], { role: 'system', content: (recorded!.messages as JsonObject[])[1]!.content[0].text }, 'the system message between turns stays in place');
});

t.test("Claude Code's tools become chat functions with their schemas, its deferred placeholder left out", async (t) => {
  const [recorded] = claudeCodeBodies('plain');
  const tools = recorded!.tools as JsonObject[];
  const chat = translate(recorded);
  t.strictSame(
    chat.tools?.map((tool) => tool.function.name),
    tools.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name),
  );
  t.notOk(chat.tools?.some((tool) => tool.function.name === 'DeferredToolPlaceholder'));
  const bash = tools.find((tool) => tool.name === 'Bash')!;
  t.strictSame(chat.tools?.find((tool) => tool.function.name === 'Bash'), { type: 'function', function: { name: 'Bash', parameters: bash.input_schema, description: bash.description } });
});

t.test("Claude Code's tool round trip keeps the tool_use id from the call to its result", async (t) => {
  const [, second] = claudeCodeBodies('tool');
  const [call] = (second!.messages as JsonObject[]).at(-2)!.content as JsonObject[];
  const [result] = (second!.messages as JsonObject[]).at(-1)!.content as JsonObject[];
  t.equal(result!.tool_use_id, call!.id, 'the recording answers its call');
  const chat = translate(second, true);
  const [assistant, tool] = chat.messages.slice(-2);
  t.strictSame(assistant, { role: 'assistant', content: null, tool_calls: [{ id: call!.id, type: 'function', function: { name: 'Bash', arguments: JSON.stringify(call!.input) } }] });
  t.strictSame(tool, { role: 'tool', tool_call_id: call!.id, content: '(Bash completed with no output)' }, 'is_error false: the text as it is');

  // The same request on gx: the call and its result become a functionCall and a functionResponse of that name.
  const native = toGxRequest(chat, { upstreamModel: 'gx-2.5-pro', media: new Map() });
  const contents = native.body.contents as JsonObject[];
  t.strictSame(contents.at(-2)?.parts.map((part: JsonObject) => part.functionCall?.name), ['Bash']);
  t.strictSame(contents.at(-1)?.parts, [{ functionResponse: { name: 'Bash', response: { content: '(Bash completed with no output)' } } }]);
  t.equal(native.body.generationConfig && (native.body.generationConfig as JsonObject).thinkingConfig?.thinkingBudget, 24576, 'gx reads the effort as its high budget');
});

t.test('sampling, stop sequences and a system string go across; metadata does not', async (t) => {
  const chat = translate(sdkBody('sampling and stop sequences'));
  t.strictSame(chat, {
    model: 'gx-2.5-flash',
    messages: [
      { role: 'system', content: 'You answer in one short sentence.' },
      { role: 'user', content: 'Count to ten.' },
    ],
    max_completion_tokens: 300,
    temperature: 0.3,
    top_p: 0.9,
    top_k: 40,
    stop: ['five', 'END'],
  });
});

t.test('images become image_url parts and documents file or text parts, titles first', async (t) => {
  const recorded = sdkBody('images and documents');
  const [png, url, pdf] = (recorded.messages as JsonObject[])[0]!.content.map((block: JsonObject) => block.source);
  const chat = translate(recorded);
  t.strictSame(chat.messages, [
    { role: 'system', content: [{ type: 'text', text: 'You describe attachments.' }, { type: 'text', text: 'Be brief.' }] },
    {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.data}` } },
        { type: 'image_url', image_url: { url: url.url } },
        { type: 'text', text: 'Empty report' },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf.data}`, filename: 'document.pdf' } },
        { type: 'text', text: 'Facts' },
        { type: 'text', text: 'From a school book' },
        { type: 'text', text: 'The sky is blue.' },
        { type: 'text', text: 'What are these?' },
      ],
    },
  ]);
});

t.test('a forced tool without parallel calls, and tool results before the rest of their user turn', async (t) => {
  const recorded = sdkBody('a forced tool and a tool round trip');
  const png = (recorded.messages as JsonObject[])[2]!.content[0].content[1].source.data;
  const chat = translate(recorded);
  t.strictSame(chat.tool_choice, { type: 'function', function: { name: 'get_weather' } });
  t.equal(chat.parallel_tool_calls, false, 'disable_parallel_tool_use');
  t.strictSame(chat.messages.slice(1), [
    {
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [
        { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_01A', content: '18 °C, cloudy' },
    { role: 'tool', tool_call_id: 'toolu_01B', content: '{"error":"the weather service timed out"}' },
    {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        { type: 'text', text: 'And tomorrow?' },
      ],
    },
  ]);
  // On gx both results answer their calls by name, the failed one in gx's functionResponse error convention.
  const native = toGxRequest(chat, { upstreamModel: 'gx-2.5-flash', media: new Map() });
  const [results, turn] = (native.body.contents as JsonObject[]).slice(-2);
  t.strictSame(results?.parts, [
    { functionResponse: { name: 'get_weather', response: { content: '18 °C, cloudy' } } },
    { functionResponse: { name: 'get_weather', response: { error: 'the weather service timed out' } } },
  ]);
  t.strictSame(turn?.parts, [{ inlineData: { mimeType: 'image/png', data: png } }, { text: 'And tomorrow?' }], "the tool's image reaches the model inline");
});

t.test('thinking with a budget asks gx for that budget and the thoughts; thinking sent back becomes reasoning content', async (t) => {
  const chat = translate(sdkBody('thinking sent back, streamed'), true);
  t.strictSame(chat.extra_body, { gx: { thinking_config: { thinking_budget: 2048, include_thoughts: true } } });
  t.notOk('reasoning_effort' in chat, 'no effort was asked for');
  t.strictSame(chat.messages[1], { role: 'assistant', content: '391', reasoning_content: '17 × 23 = 17 × 20 + 17 × 3 = 340 + 51 = 391.' }, 'the redacted block is left out');
  const native = toGxRequest(chat, { upstreamModel: 'gx-2.5-flash', media: new Map() });
  t.strictSame((native.body.generationConfig as JsonObject).thinkingConfig, { thinkingBudget: 2048, includeThoughts: true });
});

t.test('signatures sent back on thinking blocks reach gx on the parts the answer had them on: a call’s on its functionCall, the text’s on the text', async (t) => {
  const chat = translate({
    model: 'gx-3-pro-preview',
    max_tokens: 1024,
    messages: [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      // As the answers came back: JSON (thoughts signed for the call after them) and streamed (the text's signature after it).
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two cities.', signature: 'c2lnLXBhcmlz' },
          { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_rome', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_paris', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'call_rome', content: 'rain' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny in Paris, rain in Rome.' }, { type: 'thinking', thinking: '', signature: 'c2lnLXRleHQ=' }] },
      { role: 'user', content: 'Thanks.' },
    ],
  });
  t.strictSame(chat.messages[1]?.reasoning_details, [{ type: 'reasoning.encrypted', data: 'c2lnLXBhcmlz', id: 'call_paris' }]);
  t.strictSame(chat.messages[4]?.reasoning_details, [{ type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=' }]);
  t.ok(chatCompletionRequestSchema.safeParse(chat).success, "the gateway's chat schema accepts it");
  const contents = toGxRequest(chat, { upstreamModel: 'gx-3-pro-preview', media: new Map() }).body.contents as JsonObject[];
  t.strictSame(contents[1]?.parts, [
    { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLXBhcmlz' },
    { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
  ], 'the real signature, not the stand-in; the parallel call after it carries none, as gx sent it');
  t.strictSame(contents[3]?.parts, [{ text: 'Sunny in Paris, rain in Rome.', thoughtSignature: 'c2lnLXRleHQ=' }]);
});

t.test('thinking shown at the model’s own budget, thinking omitted, and thinking disabled', async (t) => {
  const prompt = { model: 'gx-3-pro-preview', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] };
  t.strictSame(translate({ ...prompt, thinking: { type: 'adaptive' } }).extra_body, { gx: { thinking_config: { include_thoughts: true } } });
  t.strictSame(translate({ ...prompt, thinking: { type: 'enabled', budget_tokens: 4096, display: 'omitted' } }).extra_body, {
    gx: { thinking_config: { thinking_budget: 4096, include_thoughts: false } },
  });
  const disabled = translate({ ...prompt, thinking: { type: 'disabled' }, output_config: { effort: 'max' } });
  t.notOk('extra_body' in disabled);
  t.equal(disabled.reasoning_effort, 'high', 'max is the most chat says');
});

t.test('structured output becomes a json_schema response format', async (t) => {
  const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
  const chat = translate({ model: 'gx-2.5-pro', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], output_config: { format: { type: 'json_schema', schema } } });
  t.strictSame(chat.response_format, { type: 'json_schema', json_schema: { name: 'output', schema, strict: true } });
});

t.test('what chat cannot say is a 400 naming the client field', async (t) => {
  const prompt = { model: 'gx-2.5-pro', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
  const tools = sdkBody('a forced tool and a tool round trip').tools;
  const unknownTool = refusal({ ...prompt, tools, tool_choice: { type: 'tool', name: 'get_time' } });
  t.equal(unknownTool.statusCode, 400);
  t.equal(unknownTool.param, 'tool_choice.name');
  t.equal(unknownTool.message, 'tool_choice.name: "get_time" is not one of the tools');
  t.equal(refusal({ ...prompt, tool_choice: { type: 'any' } }).param, 'tool_choice', '"any" without tools');
  t.notOk('tool_choice' in translate({ ...prompt, tool_choice: { type: 'auto' } }), '"auto" without tools says nothing');

  const misplaced = refusal({ ...prompt, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'toolu_1', name: 'x', input: {} }] }] });
  t.equal(misplaced.param, 'messages[0].content[0]');
  t.match(misplaced.message, /a tool_use block belongs in an assistant message/);
  const systemImage = refusal({ ...prompt, messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }, ...prompt.messages] });
  t.equal(systemImage.param, 'messages[0].content[0]');
});
