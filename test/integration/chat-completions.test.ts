import t from 'tap';
import { tinyPngBase64 } from '../fakes/gx/sample-media.js';
import { startFakeServer } from '../../core/testing/index.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, sseData, startGx, storedToken } from '../helpers/gateway-scenario.js';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'], additionalProperties: false },
  },
};

t.test('chat completions are translated to gx and back', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url, { models: ['gx-2.5-pro*'] })] });
  const token = await issueToken(t, gateway);
  const lastSent = () => fake.requests.at(-1)!;
  const lastBody = () => lastSent().json as Record<string, any>;

  t.test('a plain completion', async (t) => {
    const response = await postChat(gateway, token, {
      model: 'gx-2.5-pro',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
    });
    t.equal(response.statusCode, 200);
    t.match(response.json(), {
      object: 'chat.completion',
      model: 'gx-2.5-pro',
      choices: [{ index: 0, message: { role: 'assistant', content: 'echo: hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Number, completion_tokens: Number, total_tokens: Number },
    });
    t.equal(lastSent().path, '/v1beta/models/gx-2.5-pro:generateContent');
    t.same(lastBody().contents, [{ role: 'user', parts: [{ text: 'hello' }] }]);
    t.same(lastBody().systemInstruction, { parts: [{ text: 'Be brief.' }] }, 'the system message becomes the system instruction');
  });

  t.test('tools and tool_choice reach the upstream as functionDeclarations and toolConfig; a functionCall comes back as tool_calls', async (t) => {
    const response = await postChat(
      gateway,
      token,
      chatBody('call get_weather {"city": "Paris"}', { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
    );
    t.equal(response.statusCode, 200);
    const body = lastBody();
    t.match(body.tools, [{ functionDeclarations: [{ name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }]);
    t.notOk('additionalProperties' in body.tools[0].functionDeclarations[0].parameters, 'the schema is reduced to what gx accepts');
    t.same(body.toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });

    const choice = response.json().choices[0];
    t.equal(choice.finish_reason, 'tool_calls');
    t.match(choice.message.tool_calls, [{ id: String, type: 'function', function: { name: 'get_weather' } }]);
    t.same(JSON.parse(choice.message.tool_calls[0].function.arguments), { city: 'Paris' });

    const auto = await postChat(gateway, token, chatBody('just talk', { tools: [weatherTool], tool_choice: 'none' }));
    t.same(lastBody().toolConfig, { functionCallingConfig: { mode: 'NONE' } }, 'tool_choice none is mode NONE');
    t.equal(auto.json().choices[0].finish_reason, 'stop');
  });

  t.test('a streamed function call arrives as a tool_calls delta with finish_reason tool_calls', async (t) => {
    const response = await postChat(gateway, token, chatBody('call get_weather {"city": "Oslo"}', { tools: [weatherTool], stream: true }));
    const chunks = sseData(response.payload)
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data));
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []);
    t.match(calls, [{ index: 0, id: String, type: 'function', function: { name: 'get_weather' } }]);
    t.same(JSON.parse(calls[0].function.arguments), { city: 'Oslo' });
    t.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');
  });

  t.test('a thinking suffix reaches the upstream as the bare model with thinkingConfig', async (t) => {
    const response = await postChat(gateway, token, chatBody('ponder', { model: 'gx-2.5-pro-thinking-1024' }));
    t.equal(response.statusCode, 200);
    t.equal(lastSent().path, '/v1beta/models/gx-2.5-pro:generateContent');
    t.same(lastBody().generationConfig.thinkingConfig, { includeThoughts: true, thinkingBudget: 1024 });
    const message = response.json().choices[0].message;
    t.equal(message.content, 'echo: ponder');
    t.match(message.reasoning_content, /Reading the request/, 'the thoughts come back as reasoning_content');
    t.equal(response.json().model, 'gx-2.5-pro-thinking-1024', 'the client sees the model it asked for');
  });

  t.test('extra_body.gx is deep-merged into the native request', async (t) => {
    const response = await postChat(
      gateway,
      token,
      chatBody('merge', {
        temperature: 0.5,
        max_tokens: 64,
        extra_body: {
          gx: {
            generationConfig: { topK: 7, responseMimeType: 'text/plain' },
            safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
            cachedContent: 'cachedContents/abc123',
          },
        },
      }),
    );
    t.equal(response.statusCode, 200);
    const body = lastBody();
    t.match(body.generationConfig, { temperature: 0.5, maxOutputTokens: 64, topK: 7, responseMimeType: 'text/plain' }, 'translated and passed-through settings sit side by side');
    t.same(body.safetySettings, [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    t.equal(body.cachedContent, 'cachedContents/abc123');
    t.same(body.contents, [{ role: 'user', parts: [{ text: 'merge' }] }], 'the translated contents are kept');
  });

  t.test('an image_url data URI becomes inlineData', async (t) => {
    const response = await postChat(gateway, token, {
      model: 'gx-2.5-pro',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${tinyPngBase64}` } },
          ],
        },
      ],
    });
    t.equal(response.statusCode, 200);
    t.same(lastBody().contents[0].parts, [{ text: 'what is this' }, { inlineData: { mimeType: 'image/png', data: tinyPngBase64 } }]);
  });

  t.test('an image_url that points to a private address is refused without any upstream call or charge', async (t) => {
    const before = { requests: fake.requests.length, token: await storedToken(gateway, token) };
    const urls = [
      'http://127.0.0.1:1/x.png',
      'https://127.0.0.1/x.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/x.png',
      'http://10.0.0.8/cat.png',
      'http://localhost:1/x.png',
    ];
    for (const url of urls) {
      const response = await postChat(gateway, token, {
        model: 'gx-2.5-pro',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url } }] }],
      });
      t.equal(response.statusCode, 400, `${url} is refused`);
      t.match(response.json(), { error: { type: 'invalid_request_error', code: 'media_url_not_allowed', message: /private|loopback|link-local/ } });
    }
    t.equal(fake.requests.length, before.requests, 'the upstream received nothing');
    t.match(await storedToken(gateway, token), { remain_quota: before.token.remain_quota, used_quota: before.token.used_quota });
  });
});

t.test('a refused chat media URL names the field that gave it, in param and message', async (t) => {
  const fake = await startGx(t);
  // The media host answers under `localhost`, the one name the guard is told to allow.
  const media = await startFakeServer(({ request, response }) => {
    if (request.path === '/big.png') response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4096));
    else response.writeHead(200, { 'content-type': 'application/zip' }).end('PK');
  });
  t.teardown(() => media.close());
  const mediaUrl = media.url.replace('127.0.0.1', 'localhost');
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-main', fake.url)],
    security: { media: { max_bytes: 1024, allow_hosts: ['localhost'] } },
  });
  const token = await issueToken(t, gateway);
  const cases = [
    {
      what: 'an image_url at a private address',
      content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'http://10.0.0.8/cat.png' } }],
      param: 'messages[1].content[1].image_url.url',
      code: 'media_url_not_allowed',
    },
    {
      what: 'an image_url given as a string, too large',
      content: [{ type: 'image_url', image_url: `${mediaUrl}/big.png` }],
      param: 'messages[1].content[0].image_url',
      code: 'media_too_large',
    },
    {
      what: 'a file.url of a type gx does not take',
      content: [{ type: 'text', text: 'read' }, { type: 'file', file: { url: `${mediaUrl}/archive.zip` } }],
      param: 'messages[1].content[1].file.url',
      code: 'unsupported_media_type',
    },
    {
      what: 'a markdown image in a text part at a metadata address',
      content: [{ type: 'text', text: 'see ![x](http://169.254.169.254/latest/meta-data/)' }],
      param: 'messages[1].content[0].text',
      code: 'media_url_not_allowed',
    },
    {
      what: 'a markdown image in string content at a loopback address',
      content: 'see ![x](http://127.0.0.1:1/x.png)',
      param: 'messages[1].content',
      code: 'media_url_not_allowed',
    },
  ];
  for (const { what, content, param, code } of cases) {
    const response = await postChat(gateway, token, {
      model: 'gx-2.5-pro',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content },
      ],
    });
    t.equal(response.statusCode, 400, what);
    const error = response.json().error;
    t.match(error, { type: 'invalid_request_error', code, param }, `${what}: the answer names ${param}`);
    t.ok(error.message.startsWith(`${param}: `), `${what}: the message starts with the field`);
  }
  t.equal(fake.requests.length, 0, 'the upstream received nothing');
});
