import { readFileSync } from 'node:fs';
import t from 'tap';
import { messagesCountTokensRequestSchema, messagesRequestSchema } from '../../../core/contracts/messages-request.js';
import { parseClientInput } from '../../../core/validation/parse-client-input.js';

type Recording = { requests: { scenario?: string; path: string; body: Record<string, unknown> }[] };
const recording = (path: string): Recording => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8')) as Recording;

const valid = { model: 'gx-2.5-pro', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] };
const parse = (body: Record<string, unknown>) => parseClientInput(messagesRequestSchema, { ...valid, ...body });

t.test('every request Claude Code sent in its recorded runs is accepted as it was sent', async (t) => {
  for (const scenario of ['plain', 'tool']) {
    for (const { body } of recording(`agents/claude-code/${scenario}.json`).requests) {
      t.strictSame(parse(body), body, `${scenario}: nothing added or dropped`);
    }
  }
});

t.test('every request the Anthropic SDK sent is accepted, count_tokens by its own schema', async (t) => {
  for (const { scenario, path, body } of recording('messages/anthropic-sdk-requests.json').requests) {
    const schema = path === '/v1/messages/count_tokens' ? messagesCountTokensRequestSchema : messagesRequestSchema;
    t.strictSame(parseClientInput(schema, body), body, scenario ?? path);
  }
});

t.test('count_tokens refuses what only an answer uses', async (t) => {
  t.throws(() => parseClientInput(messagesCountTokensRequestSchema, valid), { statusCode: 400, message: 'unknown field "max_tokens" in the body; check its spelling' });
});

t.test('a mistake names its field and says what to change', async (t) => {
  t.throws(() => parse({ max_tokens: 0 }), { statusCode: 400, param: 'max_tokens', message: 'max_tokens: expected at least 1' });
  t.throws(() => parse({ temperature: 1.5 }), { param: 'temperature', message: 'temperature: expected at most 1' });
  t.throws(() => parse({ messages: [{ role: 'tool', content: 'x' }] }), { param: 'messages[0].role', message: /^messages\[0\]\.role: expected one of user, assistant, system/ });
  t.throws(() => parse({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'persistent' } }] }] }), {
    param: 'messages[0].content[0].cache_control.type',
    message: 'messages[0].content[0].cache_control.type: expected "ephemeral"',
  });
  t.throws(() => parse({ thinking: { type: 'enabled', budget_tokens: 512 } }), { param: 'thinking.budget_tokens', message: 'thinking.budget_tokens: expected at least 1024' });
  t.throws(() => parse({ tool_choice: { type: 'tool' } }), { param: 'tool_choice.name', message: 'tool_choice.name: required' });
  t.throws(() => parse({ messages: [{ role: 'user', content: [{ type: 'video' }] }] }), {
    param: 'messages[0].content[0].type',
    message: 'messages[0].content[0].type: expected a content block: text, image, document, tool_use, tool_result, thinking or redacted_thinking',
  });
});

t.test("Anthropic's own services are refused by name, with what to do instead", async (t) => {
  t.throws(() => parse({ tools: [{ type: 'bash_20250124', name: 'bash' }] }), { param: 'tools[0].type', message: /the Anthropic tool type "bash_20250124" is not served by this gateway/ });
  t.throws(() => parse({ messages: [{ role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] }] }), {
    param: 'messages[0].content[0].type',
    message: /a server_tool_use block belongs to Anthropic's own tools and services/,
  });
  t.throws(() => parse({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_011' } }] }] }), {
    param: 'messages[0].content[0].source.file_id',
    message: /the Files API is not served by this gateway; send the file inline as base64/,
  });
  for (const field of ['container', 'mcp_servers', 'inference_geo', 'compaction', 'workspace_id']) {
    t.throws(() => parse({ [field]: field === 'mcp_servers' ? [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] : 'x' }), { param: field, message: new RegExp(`^${field}: `) }, field);
  }
  t.strictSame(parse({ container: null }).container, null, 'null is "none", accepted');
});
