import t from 'tap';
import type { NativeGenerateRequest } from '../../../../core/index.js';
import { nativeGenerateRequestSchema } from '../../../../core/contracts/native-requests.js';
import nativeToChat from '../../../../translators/native-to-chat/index.js';
import { context, fixtureJson } from './fixtures/read-translator-fixtures.js';

// What Gemini CLI 0.61.0 really sent (test/fixtures/agents/gemini-cli/, recorded headless
// against a loopback recorder): every request a streamed one, so every translation is too.

interface AgentRecording {
  requests: { path: string; query: Record<string, string>; body: unknown }[];
}

const recorded = (scenario: 'plain' | 'tool') => fixtureJson<AgentRecording>(`agents/gemini-cli/${scenario}.json`).requests;
const asRouteReadsIt = (body: unknown): NativeGenerateRequest => nativeGenerateRequestSchema.parse(body);
const translate = (body: unknown) => nativeToChat.request(asRouteReadsIt(body), context(true)).request;

t.test('Gemini CLI’s plain prompt becomes a streamed chat request with its system prompt, both context parts and every tool', async (t) => {
  const [request] = recorded('plain');
  t.equal(request?.path, '/v1beta/models/gx-2.5-pro:streamGenerateContent');
  t.strictSame(request?.query, { alt: 'sse' });
  const native = asRouteReadsIt(request?.body);
  const chat = translate(request?.body);
  const system = native.systemInstruction?.parts.map((part) => part.text).join('\n');
  const [context, prompt] = native.contents[0]?.parts ?? [];
  t.strictSame(chat.messages, [
    { role: 'system', content: system },
    { role: 'user', content: [{ type: 'text', text: context?.text }, { type: 'text', text: prompt?.text }] },
  ]);
  const declarations = (native.tools?.[0] as { functionDeclarations: { name: string; description: string; parametersJsonSchema: unknown }[] }).functionDeclarations;
  t.equal(chat.tools?.length, declarations.length, 'every declared function, google_web_search included, is a function tool');
  t.strictSame(
    chat.tools,
    declarations.map((declaration) => ({ type: 'function', function: { name: declaration.name, description: declaration.description, parameters: declaration.parametersJsonSchema } })),
  );
  t.equal(chat.temperature, 1);
  t.equal(chat.top_p, 0.95);
  t.notOk('top_k' in chat, 'its topK of 64 is left out');
  t.notOk('reasoning_effort' in chat, 'includeThoughts alone sets no effort');
  t.strictSame([chat.stream, chat.stream_options], [true, { include_usage: true }]);
});

t.test('Gemini CLI’s shell-tool round trip keeps the call id it wrote on both sides, without the stub signature', async (t) => {
  const [first, second] = recorded('tool');
  t.equal(translate(first?.body).messages.length, 2, 'the first request is the system prompt and the user turn');
  const messages = translate(second?.body).messages;
  const call = (asRouteReadsIt(second?.body).contents[1]?.parts[0] as { functionCall: { id: string; name: string; args: unknown } }).functionCall;
  const reply = (asRouteReadsIt(second?.body).contents[2]?.parts[0] as { functionResponse: { response: unknown } }).functionResponse;
  t.strictSame(messages.slice(2), [
    { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'run_shell_command', arguments: JSON.stringify(call.args) } }] },
    { role: 'tool', tool_call_id: call.id, content: JSON.stringify(reply.response) },
  ]);
  t.equal(call.id, 'run_shell_command_1796187826654_0');
  t.notOk(JSON.stringify(messages).includes('skip_thought_signature_validator'));
});
