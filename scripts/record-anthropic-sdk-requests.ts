// Records what the official Anthropic SDK (`@anthropic-ai/sdk`, a dev dependency) sends for
// the Messages features the translator tests need beyond Claude Code's own recordings: images,
// documents, forced tools, a tool round trip with an error and an image, thinking sent back,
// stop sequences, and count_tokens. A loopback server keeps each request (headers without
// the key, body) and refuses it with an Anthropic error, so nothing is answered in its name.
// Run: `node_modules/.bin/tsx scripts/record-anthropic-sdk-requests.ts` (writes
// test/fixtures/messages/anthropic-sdk-requests.json).
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';

interface Recorded {
  scenario: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const recorded: Recorded[] = [];
let scenario = '';
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { 'x-api-key': _key, authorization: _authorization, host: _host, 'content-length': _length, ...headers } = request.headers;
    recorded.push({ scenario, method: request.method ?? '', path: request.url ?? '', headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'recorded, not answered' } }));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = new Anthropic({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'sk-recording', maxRetries: 0 });

// A 1×1 transparent PNG and the smallest PDF a reader opens: what a client would attach.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const pdf = Buffer.from('%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n').toString('base64');
const weatherTool = {
  name: 'get_weather',
  description: 'The current weather in a city.',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string', description: 'The city name' } }, required: ['city'] },
};

const scenarios: Record<string, () => Promise<unknown>> = {
  // The SDK's types no longer list temperature, top_p and top_k (the API of its version dropped
  // them); it still sends them, as clients written for older versions do.
  'sampling and stop sequences': () =>
    client.messages.create({
      model: 'gx-2.5-flash',
      max_tokens: 300,
      system: 'You answer in one short sentence.',
      messages: [{ role: 'user', content: 'Count to ten.' }],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['five', 'END'],
      metadata: { user_id: 'user-1234' },
    } as Anthropic.MessageCreateParamsNonStreaming),
  'images and documents': () =>
    client.messages.create({
      model: 'gx-2.5-flash',
      max_tokens: 200,
      system: [
        { type: 'text', text: 'You describe attachments.' },
        { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'image', source: { type: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'Empty report' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'The sky is blue.' }, title: 'Facts', context: 'From a school book' },
            { type: 'text', text: 'What are these?', cache_control: { type: 'ephemeral', ttl: '1h' } },
          ],
        },
      ],
    }),
  'a forced tool and a tool round trip': () =>
    client.messages.create({
      model: 'gx-2.5-flash',
      max_tokens: 200,
      tools: [weatherTool],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'What is the weather in Paris and in Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: [{ type: 'text', text: '18 °C, cloudy' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] },
            { type: 'tool_result', tool_use_id: 'toolu_01B', content: 'the weather service timed out', is_error: true },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
    }),
  'thinking sent back, streamed': () =>
    client.messages
      .stream({
        model: 'gx-2.5-flash',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [
          { role: 'user', content: 'What is 17 × 23?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: '17 × 23 = 17 × 20 + 17 × 3 = 340 + 51 = 391.', signature: '' },
              { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
              { type: 'text', text: '391' },
            ],
          },
          { role: 'user', content: 'And 17 × 24?' },
        ],
      })
      .finalMessage(),
  'count tokens with tools': () =>
    client.messages.countTokens({ model: 'gx-2.5-flash', system: 'You help with the weather.', tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Oslo?' }] }),
};

for (const [name, call] of Object.entries(scenarios)) {
  scenario = name;
  await call().catch((error: unknown) => {
    if (!(error instanceof Anthropic.BadRequestError)) throw error;
  });
}
server.close();

const file = new URL('../test/fixtures/messages/anthropic-sdk-requests.json', import.meta.url);
const sdkVersion = (await import('@anthropic-ai/sdk/version')).VERSION;
writeFileSync(file, `${JSON.stringify({ client: '@anthropic-ai/sdk', version: sdkVersion, node: process.version, requests: recorded }, null, 1)}\n`);
console.log(`${recorded.length} requests written to ${file.pathname}`);
