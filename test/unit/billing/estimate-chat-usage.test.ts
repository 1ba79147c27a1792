import t from 'tap';
import { estimateChatUsage } from '../../../core/billing/estimate-chat-usage.js';
import { maxPdfTokens, tokensPerImage } from '../../../core/billing/inline-media-tokens.js';

const billing = { billing: { allow_free_models: false, estimated_output_tokens: 4096, price_catalog: true } };

t.test('input tokens are a quarter of the UTF-8 bytes of the serialized messages, rounded up', async (t) => {
  const messages = [{ role: 'user', content: 'hello' }];
  const bytes = Buffer.byteLength(JSON.stringify(messages));
  const usage = estimateChatUsage({ model: 'gx-2.5-pro', messages }, billing);
  t.equal(bytes, 35);
  t.equal(usage.inputTokens, 9);
  t.equal(usage.cachedInputTokens, 0);
  t.equal(usage.reasoningTokens, 0);
  t.equal(usage.source, 'estimated');
});

t.test('multi-byte characters count by their UTF-8 bytes', async (t) => {
  // "日本" is 6 bytes in UTF-8: [{"content":"日本"}] is 22 bytes.
  t.equal(estimateChatUsage({ messages: [{ content: '日本' }] }, billing).inputTokens, 6);
});

t.test('native requests are estimated from their contents and system instruction', async (t) => {
  const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
  const systemInstruction = { parts: [{ text: 'be brief' }] };
  const withoutSystem = Buffer.byteLength(JSON.stringify({ contents }));
  const withSystem = Buffer.byteLength(JSON.stringify({ systemInstruction, contents }));
  t.equal(estimateChatUsage({ contents }, billing).inputTokens, Math.ceil(withoutSystem / 4));
  t.equal(estimateChatUsage({ contents, systemInstruction }, billing).inputTokens, Math.ceil(withSystem / 4));
});

t.test('output tokens are the limit the client set, under any of its names', async (t) => {
  const messages = [{ role: 'user', content: 'hi' }];
  t.equal(estimateChatUsage({ messages, max_tokens: 300 }, billing).outputTokens, 300);
  t.equal(estimateChatUsage({ messages, max_completion_tokens: 200 }, billing).outputTokens, 200);
  t.equal(estimateChatUsage({ messages, max_tokens: 300, max_completion_tokens: 200 }, billing).outputTokens, 200);
  t.equal(estimateChatUsage({ contents: [], generationConfig: { maxOutputTokens: 64 } }, billing).outputTokens, 64);
});

t.test('without a limit the configured estimate of output tokens applies', async (t) => {
  t.equal(estimateChatUsage({ messages: [], max_tokens: null }, billing).outputTokens, 4096);
  t.equal(estimateChatUsage({ contents: [], generationConfig: {} }, { billing: { ...billing.billing, estimated_output_tokens: 10 } }).outputTokens, 10);
});

t.test('an explicit output count overrides the request and the config (embeddings produce none)', async (t) => {
  t.equal(estimateChatUsage({ contents: [{ parts: [{ text: 'embed me' }] }], max_tokens: 50 }, billing, 0).outputTokens, 0);
});

// About 3 MB of base64: 4 MB of it read as text would reserve a million tokens.
const imageBase64 = Buffer.alloc(2 * 1024 * 1024, 7).toString('base64');
const pngUri = `data:image/png;base64,${imageBase64}`;
const inputTokens = (body: object): number => estimateChatUsage(body, billing).inputTokens;
/** Today's rule: a quarter of the UTF-8 bytes of the JSON, rounded up. */
const jsonTokens = (value: unknown): number => Math.ceil(Buffer.byteLength(JSON.stringify(value)) / 4);

t.test('text-only requests estimate exactly as before: a quarter of the JSON bytes', async (t) => {
  const imageByUrl = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
  const shapes: Array<[string, object]> = [
    ['escapes, controls and lone surrogates', { messages: [{ role: 'user', content: 'a "quoted"\n\ttab \\ \u0001 \ud800 😀 日本' }] }],
    ['text parts and an image by URL', { messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, imageByUrl] }] }],
    [
      'tool calls and tool results',
      {
        messages: [
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
        ],
      },
    ],
    [
      'audio and files by URL',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'input_audio', input_audio: { data: 'https://example.com/a.mp3', format: 'mp3' } },
              { type: 'file', file: { file_data: 'https://example.com/a.pdf', filename: 'a.pdf' } },
              { type: 'file', file: { file_id: 'file-1' } },
            ],
          },
        ],
      },
    ],
    ['a data URI inside text stays text', { messages: [{ role: 'user', content: `![x](data:image/png;base64,${'A'.repeat(400)})` }] }],
    ['a Responses string input', { input: 'hello', instructions: 'be brief' }],
    ['Responses items, an image by URL', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] }],
    ['native contents with a file by URI', { contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } }] }] }],
  ];
  for (const [name, body] of shapes) {
    const request = body as { messages?: unknown; input?: unknown; instructions?: unknown; contents?: unknown };
    const input = request.messages ?? (request.input !== undefined ? { instructions: request.instructions, input: request.input } : { contents: request.contents });
    t.equal(inputTokens(body), jsonTokens(input), name);
  }
});

t.test('an inline image counts 1445 tokens, not its bytes', async (t) => {
  t.test('a chat image_url with a data URI', async (t) => {
    const messages = (url: string) => [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url, detail: 'high' } }] }];
    const estimated = inputTokens({ messages: messages(pngUri) });
    t.equal(estimated, jsonTokens(messages('')) + tokensPerImage, 'the text around it, plus the per-image figure');
    t.ok(estimated < 2000, `${estimated} tokens, where its bytes / 4 would be ${jsonTokens(messages(pngUri))}`);
    const asString = (imageUrl: string) => [{ role: 'user', content: [{ type: 'image_url', image_url: imageUrl }] }];
    t.equal(inputTokens({ messages: asString(pngUri) }), jsonTokens(asString('')) + tokensPerImage, 'image_url as a string too');
  });

  t.test('a gx inlineData part', async (t) => {
    const contents = (data: string) => [{ role: 'user', parts: [{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data } }] }];
    const systemInstruction = { parts: [{ text: 'be brief' }] };
    t.equal(inputTokens({ contents: contents(imageBase64), systemInstruction }), jsonTokens({ systemInstruction, contents: contents('') }) + tokensPerImage);
    const snakeCase = (data: string) => [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/webp', data } }] }];
    t.equal(inputTokens({ contents: snakeCase(imageBase64) }), jsonTokens({ contents: snakeCase('') }) + tokensPerImage, 'in snake case too');
  });

  t.test('a Responses input_image with a data URL', async (t) => {
    const input = (imageUrl: string) => [{ role: 'user', content: [{ type: 'input_text', text: 'what is this?' }, { type: 'input_image', image_url: imageUrl }] }];
    t.equal(inputTokens({ input: input(pngUri), instructions: 'be brief' }), jsonTokens({ instructions: 'be brief', input: input('') }) + tokensPerImage);
    const bare = (imageUrl: string) => [{ type: 'input_image', image_url: imageUrl }];
    t.equal(inputTokens({ input: bare(pngUri) }), jsonTokens({ input: bare('') }) + tokensPerImage, 'as a bare input item too');
  });

  t.test('every image counts, in any turn', async (t) => {
    const turns = (url: string) => [
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }, { type: 'image_url', image_url: { url } }] },
      { role: 'assistant', content: 'two images' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
    ];
    t.equal(inputTokens({ messages: turns(pngUri) }), jsonTokens(turns('')) + 3 * tokensPerImage);
  });

  t.test('images a tool returned count too', async (t) => {
    const output = (imageUrl: string) => [{ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_image', image_url: imageUrl }] }];
    t.equal(inputTokens({ input: output(pngUri) }), jsonTokens({ input: output('') }) + tokensPerImage, 'a Responses function call output');
    const response = (data: string) => ({ name: 'snap', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data } }] });
    const contents = (data: string) => [{ role: 'user', parts: [{ functionResponse: response(data) }] }];
    t.equal(inputTokens({ contents: contents(imageBase64) }), jsonTokens({ contents: contents('') }) + tokensPerImage, 'a gx function response');
  });
});

t.test('inline audio counts 32 tokens a second, its length read at 16 kbit/s', async (t) => {
  // 200,000 bytes of audio: 100 s at 16 kbit/s, 3200 tokens.
  const audio = Buffer.alloc(200_000).toString('base64');
  const messages = (data: string) => [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data, format: 'wav' } }] }];
  t.equal(inputTokens({ messages: messages(audio) }), jsonTokens(messages('')) + 3200, 'bare base64 (OpenAI input_audio)');
  const contents = (data: string) => [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/mp3', data } }] }];
  t.equal(inputTokens({ contents: contents(audio) }), jsonTokens({ contents: contents('') }) + 3200, 'gx inlineData');
});

t.test('inline files count as the text they decode to, a PDF at most 258,000 tokens', async (t) => {
  const small = Buffer.alloc(40_000).toString('base64');
  const large = Buffer.alloc(2_000_000).toString('base64');
  const chat = (fileData: string, filename: string) => [{ role: 'user', content: [{ type: 'file', file: { file_data: fileData, filename } }] }];
  const responses = (fileData: string) => [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: fileData }] }];
  t.equal(inputTokens({ messages: chat(small, 'notes.txt') }), jsonTokens(chat('', 'notes.txt')) + 10_000, 'bare base64, 40,000 bytes: 10,000 tokens');
  t.equal(inputTokens({ input: responses(`data:application/pdf;base64,${small}`) }), jsonTokens({ input: responses('') }) + 10_000, 'a Responses input_file data URI');
  t.equal(inputTokens({ input: responses(`data:application/pdf;base64,${large}`) }), jsonTokens({ input: responses('') }) + maxPdfTokens, 'a large PDF is capped');
  t.equal(inputTokens({ messages: chat(large, 'scan.pdf') }), jsonTokens(chat('', 'scan.pdf')) + maxPdfTokens, 'a PDF known by its file name too');
  t.equal(inputTokens({ messages: chat(imageBase64, 'photo.JPG') }), jsonTokens(chat('', 'photo.JPG')) + tokensPerImage, 'an image file counts as an image');
});
