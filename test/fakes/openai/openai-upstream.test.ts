import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import t, { type Test } from 'tap';
import { pcmTone, startFakeOpenAiUpstream, wavFile, type FakeOpenAiUpstream } from './fake-openai-upstream.js';

const apiKey = 'openai-unit-key';
const fixtureBytes = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
const fixtureJson = (path: string) => JSON.parse(fixtureBytes(path).toString('utf8'));

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Each body chunk as it arrived. */
  arrivals: Buffer[];
  error?: Error;
}

/** A POST with `node:http`, so the test sees the exact bytes, the chunking and a reset as it happens. */
function post(fake: FakeOpenAiUpstream, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const answer: RawAnswer = { status: 0, headers: {}, body: Buffer.alloc(0), arrivals: [] };
    const finish = (error?: Error) => {
      answer.body = Buffer.concat(answer.arrivals);
      if (error !== undefined) answer.error = error;
      resolve(answer);
    };
    const allHeaders = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers };
    const outgoing = httpRequest(`${fake.url}${path}`, { method: 'POST', headers: allHeaders }, (incoming) => {
      answer.status = incoming.statusCode ?? 0;
      answer.headers = incoming.headers;
      incoming.on('data', (bytes: Buffer) => answer.arrivals.push(bytes));
      incoming.on('end', () => finish());
      incoming.on('error', (error) => finish(error));
    });
    outgoing.on('error', (error) => finish(error));
    outgoing.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
  });
}

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

/** A multipart upload as a client library would send it. */
async function multipart(fields: Record<string, string | string[]>, file?: { name: string; bytes: Uint8Array }): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  if (file !== undefined) form.append('file', new Blob([file.bytes]), file.name);
  const request = new Request('http://client.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function upload(fake: FakeOpenAiUpstream, path: string, fields: Record<string, string | string[]>, file?: { name: string; bytes: Uint8Array }) {
  const { body, contentType } = await multipart(fields, file);
  return post(fake, path, body, { 'content-type': contentType });
}

interface ResponseStreamEvent {
  name: string;
  data: Record<string, any>;
}

/** Reads a Responses stream strictly: every block is exactly an `event:` line and a `data:` line. */
function responseEvents(t: Test, raw: string): ResponseStreamEvent[] {
  t.ok(raw.endsWith('\n\n'), 'the stream ends after a whole event');
  return raw
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      t.equal(lines.length, 2, `two lines per event: ${block.slice(0, 60)}`);
      t.match(lines[0], /^event: [a-z_.]+$/);
      t.match(lines[1], /^data: \{/);
      return { name: lines[0]!.slice('event: '.length), data: JSON.parse(lines[1]!.slice('data: '.length)) };
    });
}

/** Event names with runs of the same name collapsed, so streams of different lengths compare. */
const shape = (events: ResponseStreamEvent[]) => events.map((event) => event.name).filter((name, index, names) => name !== names[index - 1]);

const textFixture = fixtureBytes('gp/openai-responses-stream-text.sse').toString('utf8');
const errorFixture = fixtureBytes('gp/openai-responses-stream-error.sse').toString('utf8');
const nonStreamFixture = fixtureJson('gp/openai-responses-nonstream-reasoning.json');
const verboseFixture = fixtureJson('openai-audio/openai-transcription-verbose.json');

async function startFake(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey });
  t.teardown(() => fake.close());
  return fake;
}

const weatherTool = { type: 'function', name: 'weather', description: 'Weather by city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

t.test('a non-stream Response has every top-level key of the recorded one, in its order, as pretty JSON', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1/responses', { model: 'gpt-5-mini', input: 'hello there', instructions: 'Be brief.', temperature: 0.2, metadata: { run: '7' } });
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json');
  t.equal(answer.headers['content-length'], String(answer.body.length));
  t.match(answer.headers['x-request-id'], /^req_/);
  const body = json(answer);
  t.equal(answer.body.toString('utf8'), JSON.stringify(body, null, 2));
  t.same(Object.keys(body), Object.keys(nonStreamFixture));
  t.match(body, { object: 'response', status: 'completed', model: 'gpt-5-mini', instructions: 'Be brief.', temperature: 0.2, metadata: { run: '7' }, previous_response_id: null });
  t.match(body.id, /^resp_[0-9a-f]{50}$/);
  t.same(Object.keys(body.usage), Object.keys(nonStreamFixture.usage));
  t.equal(body.output.length, 1);
  const [message] = body.output;
  t.same(Object.keys(message), Object.keys(nonStreamFixture.output[1]));
  t.match(message.id, /^msg_/);
  t.same(message.content, [{ type: 'output_text', annotations: [], logprobs: [], text: 'echo: hello there' }]);
  t.same(Object.keys(message.content[0]), Object.keys(nonStreamFixture.output[1].content[0]));
  t.equal(body.usage.output_tokens_details.reasoning_tokens, 0);
});

t.test('reasoning puts a reasoning item shaped like the recorded one before the message and counts reasoning tokens', async (t) => {
  const fake = await startFake(t);
  const request = { model: 'gpt-5-mini', input: [{ role: 'user', content: [{ type: 'input_text', text: 'think' }] }], reasoning: { effort: 'high', summary: 'detailed' }, include: ['reasoning.encrypted_content'] };
  const body = json(await post(fake, '/v1/responses', request));
  t.same(body.output.map((item: { type: string }) => item.type), ['reasoning', 'message']);
  const [reasoning, message] = body.output;
  t.same(Object.keys(reasoning), Object.keys(nonStreamFixture.output[0]));
  t.match(reasoning, { id: /^rs_/, encrypted_content: /^gAAAAAB/, summary: [{ type: 'summary_text', text: String }] });
  t.equal(message.content[0].text, 'echo: think');
  t.same(body.reasoning, { effort: 'high', summary: 'detailed' });
  t.ok(body.usage.output_tokens_details.reasoning_tokens > 0);
  t.ok(body.usage.output_tokens > body.usage.output_tokens_details.reasoning_tokens, 'output tokens include the reasoning tokens');

  const quiet = json(await post(fake, '/v1/responses', { model: 'gpt-5-mini', input: 'x', reasoning: { effort: 'low' } }));
  t.same(quiet.output[0].summary, [], 'no summary unless asked for');
  t.notOk('encrypted_content' in quiet.output[0], 'no encrypted content unless included');
  const none = json(await post(fake, '/v1/responses', { model: 'gpt-5-mini', input: 'x', reasoning: { effort: 'none' } }));
  t.same(none.output.map((item: { type: string }) => item.type), ['message']);
});

t.test('a text stream is framed like the recorded stream: event and data lines, numbered from 0, no [DONE]', async (t) => {
  const fake = await startFake(t);
  fake.next({ text: 'The final result is **570**.' });
  const answer = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true });
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'text/event-stream; charset=utf-8');
  t.equal(answer.headers['transfer-encoding'], 'chunked');
  const raw = answer.body.toString('utf8');
  t.notOk(raw.includes('[DONE]'));
  const events = responseEvents(t, raw);
  const recorded = responseEvents(t, textFixture);
  t.same(shape(events), shape(recorded));
  t.same(
    events.map((event) => event.data.sequence_number),
    events.map((_, index) => index),
  );
  const recordedByType = new Map(recorded.map((event) => [event.name, event.data]));
  for (const event of events) {
    t.equal(event.data.type, event.name);
    t.same(Object.keys(event.data), Object.keys(recordedByType.get(event.name)!), `${event.name} has the recorded keys in order`);
  }
  const first = events[0]!.data.response;
  const last = events.at(-1)!.data.response;
  t.same(Object.keys(first), Object.keys(recordedByType.get('response.created')!.response), 'streamed snapshots carry no billing');
  t.match(first, { status: 'in_progress', output: [], usage: null, service_tier: 'auto' });
  t.match(last, { id: first.id, status: 'completed', service_tier: 'default', output: [{ content: [{ text: 'The final result is **570**.' }] }] });
  t.same(Object.keys(last.usage), Object.keys(recordedByType.get('response.completed')!.response.usage));
  const deltas = events.filter((event) => event.name === 'response.output_text.delta');
  t.equal(deltas.map((event) => event.data.delta).join(''), 'The final result is **570**.');
  t.same(deltas[0]!.data.delta, 'The', 'words carry the space before them, as recorded');
  for (const delta of deltas) t.equal(delta.data.delta.length + delta.data.obfuscation.length, 16, 'padded to 16 characters as recorded');
  t.equal(new Set(events.slice(2, -1).map((event) => event.data.item_id ?? event.data.item.id)).size, 1, 'one message item id throughout');
});

t.test('stream_options.include_obfuscation false drops the padding', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'a b c', stream: true, stream_options: { include_obfuscation: false } });
  t.notOk(answer.body.toString('utf8').includes('obfuscation'));
});

t.test('streamErrorBeforeContent sends the recorded error stream: error event, then response.failed, status 200', async (t) => {
  const fake = await startFake(t);
  fake.next({ streamErrorBeforeContent: true });
  const answer = await post(fake, '/v1/responses', { model: 'gpt-5-nano', input: 'x', stream: true });
  t.equal(answer.status, 200);
  const events = responseEvents(t, answer.body.toString('utf8'));
  const recorded = responseEvents(t, errorFixture);
  t.same(
    events.map((event) => event.name),
    recorded.map((event) => event.name),
  );
  t.same(
    events.map((event) => event.data.sequence_number),
    [0, 1, 2, 3],
  );
  t.same(events[2]!.data, recorded[2]!.data, 'the error event is the recorded insufficient_quota one');
  const failed = events[3]!.data.response;
  t.same(Object.keys(failed), Object.keys(recorded[3]!.data.response));
  t.match(failed, { status: 'failed', error: recorded[3]!.data.response.error, output: [], usage: null });

  fake.next({ streamErrorBeforeContent: 'server_error', message: 'try later' });
  const server = responseEvents(t, (await post(fake, '/v1/responses', { model: 'gpt-5-nano', input: 'x', stream: true })).body.toString('utf8'));
  t.same(server[2]!.data.error, { type: 'server_error', code: 'server_error', message: 'try later', param: null });
  t.same(server[3]!.data.response.error, { code: 'server_error', message: 'try later' });
});

t.test('streamErrorAfterContent fails after some text deltas', async (t) => {
  const fake = await startFake(t);
  fake.next({ streamErrorAfterContent: true, text: 'one two three four' });
  const events = responseEvents(t, (await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true })).body.toString('utf8'));
  t.same(shape(events), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'error',
    'response.failed',
  ]);
  t.equal(events.filter((event) => event.name === 'response.output_text.delta').length, 2);
});

t.test('previous_response_id must name a response the fake produced', async (t) => {
  const fake = await startFake(t);
  const unknown = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', previous_response_id: 'resp_nope' });
  t.equal(unknown.status, 400);
  t.equal(
    unknown.body.toString('utf8'),
    JSON.stringify(
      { error: { message: "Previous response with id 'resp_nope' not found.", type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } },
      null,
      2,
    ),
  );

  const first = json(await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'first turn' }));
  const second = json(await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'second turn', previous_response_id: first.id }));
  t.match(second, { previous_response_id: first.id, output: [{ content: [{ text: 'echo: second turn' }] }] });
  t.ok(fake.storedResponses.has(second.id));

  const streamed = responseEvents(t, (await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true, previous_response_id: second.id })).body.toString('utf8'));
  const streamedId = streamed[0]!.data.response.id;
  t.equal((await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'y', previous_response_id: streamedId })).status, 200, 'streamed responses are remembered too');
});

t.test('a function call answers a function_call item, streamed as argument deltas', async (t) => {
  const fake = await startFake(t);
  fake.next({ functionCall: { name: 'weather', arguments: { city: 'Paris' } } });
  const body = json(await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'weather?', tools: [weatherTool] }));
  t.match(body.output, [{ id: /^fc_/, type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: /^call_/, name: 'weather' }]);
  t.same(Object.keys(body.output[0]), ['id', 'type', 'status', 'arguments', 'call_id', 'name']);
  t.same(body.tools, [{ ...weatherTool, strict: true }], 'tools are echoed with their defaults');

  const streamed = responseEvents(t, (await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'please call weather {"city":"Oslo"}', tools: [weatherTool], stream: true, reasoning: { effort: 'low', summary: 'auto' } })).body.toString('utf8'));
  t.same(shape(streamed), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.reasoning_summary_part.added',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.output_item.done',
    'response.output_item.added',
    'response.function_call_arguments.delta',
    'response.function_call_arguments.done',
    'response.output_item.done',
    'response.completed',
  ]);
  const deltas = streamed.filter((event) => event.name === 'response.function_call_arguments.delta');
  t.equal(deltas.map((event) => event.data.delta).join(''), '{"city":"Oslo"}');
  t.same(deltas.slice(0, 3).map((event) => event.data.delta), ['{"', 'city', '":"'], 'cut like a tokenizer, as recorded');
  t.match(streamed.at(-1)!.data.response.output, [{ type: 'reasoning' }, { type: 'function_call', call_id: /^call_/ }]);
  t.same(
    streamed.filter((event) => event.name === 'response.output_item.added').map((event) => event.data.output_index),
    [0, 1],
  );

  fake.next({ functionCall: { name: 'undeclared' } });
  t.match(json(await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', tools: [weatherTool] })).output, [{ type: 'message' }], 'an undeclared function cannot be called');

  const afterTool = json(
    await post(fake, '/v1/responses', {
      model: 'gpt-5.1',
      input: [{ type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' }],
    }),
  );
  t.equal(afterTool.output[0].content[0].text, 'weather returned {"temp":21}');
});

t.test('the Responses route validates model and input like OpenAI', async (t) => {
  const fake = await startFake(t);
  const noModel = await post(fake, '/v1/responses', { input: 'x' });
  t.equal(noModel.status, 400);
  t.same(json(noModel), { error: { message: "Missing required parameter: 'model'.", type: 'invalid_request_error', param: 'model', code: 'missing_required_parameter' } });
  t.match(json(await post(fake, '/v1/responses', { model: 'gpt-5.1' })), { error: { param: 'input' } });
  t.match(json(await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 3 })), { error: { param: 'input', code: 'invalid_type' } });
});

t.test('events, doneMarker and rawSse send what the test gave on the Responses route', async (t) => {
  const fake = await startFake(t);
  fake.next({ events: [{ type: 'response.created', response: { id: 'resp_x' } }], doneMarker: true });
  const scripted = (await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true })).body.toString('utf8');
  t.equal(scripted, 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_x"}}\n\ndata: [DONE]\n\n');

  fake.next({ rawSse: textFixture, chunkDelayMs: 5 });
  const replayed = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true });
  t.equal(replayed.body.toString('utf8'), textFixture);
  t.ok(replayed.arrivals.length >= 16, `each event written on its own (${replayed.arrivals.length} arrivals)`);
});

t.test('scripted HTTP errors, resets and truncation work on the Responses route', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 429 });
  const limited = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x' });
  t.equal(limited.status, 429);
  t.match(json(limited), { error: { type: 'requests', code: 'rate_limit_exceeded', param: null } });

  fake.next({ truncateSse: true });
  const truncated = (await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true })).body.toString('utf8');
  t.notOk(truncated.endsWith('\n\n'), 'the last event was cut');

  fake.next({ resetAfterChunks: 3 });
  const reset = await post(fake, '/v1/responses', { model: 'gpt-5.1', input: 'x', stream: true });
  t.ok(reset.error, 'the client saw the reset');
  t.equal(reset.body.toString('utf8').split('\n\n').length - 1, 3);
});

t.test('every route wants the bearer key and an unknown path is a 404', async (t) => {
  const fake = await startFake(t);
  for (const path of ['/v1/chat/completions', '/v1/responses', '/v1/audio/speech', '/v1/audio/transcriptions', '/v1/audio/translations']) {
    const wrong = await post(fake, path, {}, { authorization: 'Bearer nope' });
    t.equal(wrong.status, 401, path);
    t.match(json(wrong), { error: { type: 'invalid_request_error', code: 'invalid_api_key', param: null } });
  }
  const missing = await post(fake, '/v1/responses', {}, { authorization: '' });
  t.equal(missing.status, 401);
  t.equal((await post(fake, '/v1/audio/voices', {})).status, 404);
});

t.test('speech answers chunked audio typed by format, each recognisable by its magic bytes', async (t) => {
  const fake = await startFake(t);
  const magic: Record<string, [string, number[]]> = {
    mp3: ['audio/mpeg', [0x49, 0x44, 0x33]],
    opus: ['audio/opus', [0x4f, 0x67, 0x67, 0x53]],
    aac: ['audio/aac', [0xff, 0xf1]],
    flac: ['audio/flac', [0x66, 0x4c, 0x61, 0x43]],
    wav: ['audio/wav', [0x52, 0x49, 0x46, 0x46]],
  };
  for (const [format, [contentType, bytes]] of Object.entries(magic)) {
    const answer = await post(fake, '/v1/audio/speech', { model: 'gpt-4o-mini-tts', input: 'Hello there.', voice: 'alloy', response_format: format });
    t.equal(answer.status, 200, format);
    t.equal(answer.headers['content-type'], contentType);
    t.equal(answer.headers['content-length'], undefined);
    t.equal(answer.headers['transfer-encoding'], 'chunked');
    t.ok(answer.arrivals.length >= 2, `${format} came in ${answer.arrivals.length} chunks`);
    t.same([...answer.body.subarray(0, bytes.length)], bytes, `${format} magic`);
  }
  const mp3 = await post(fake, '/v1/audio/speech', { model: 'tts-1', input: 'Hello there.', voice: 'alloy' });
  t.equal(mp3.headers['content-type'], 'audio/mpeg', 'mp3 is the default');
  t.same([...mp3.body.subarray(10, 12)], [0xff, 0xfb], 'an MPEG frame follows the ID3 tag');
});

t.test('speech as wav is a valid PCM file whose length follows the input; pcm is the same samples', async (t) => {
  const fake = await startFake(t);
  const wav = (await post(fake, '/v1/audio/speech', { model: 'tts-1', input: 'abcdefghij', voice: 'nova', response_format: 'wav' })).body;
  t.equal(wav.toString('ascii', 8, 16), 'WAVEfmt ');
  t.equal(wav.readUInt32LE(24), 24_000, 'sample rate');
  t.equal(wav.readUInt16LE(22), 1, 'mono');
  t.equal(wav.readUInt16LE(34), 16, '16-bit');
  t.equal(wav.readUInt32LE(40), 10 * 0.05 * 24_000 * 2, '50 ms per character');
  t.equal(wav.readUInt32LE(4), wav.length - 8);
  const pcm = await post(fake, '/v1/audio/speech', { model: 'tts-1', input: 'abcdefghij', voice: 'nova', response_format: 'pcm' });
  t.equal(pcm.headers['content-type'], 'audio/pcm');
  t.same(pcm.body, wav.subarray(44));
  const faster = await post(fake, '/v1/audio/speech', { model: 'tts-1', input: 'abcdefghij', voice: 'nova', response_format: 'pcm', speed: 2 });
  t.equal(faster.body.length, pcm.body.length / 2, 'speed shortens the audio');
});

t.test('speech with stream_format sse sends base64 audio deltas and a done event with usage', async (t) => {
  const fake = await startFake(t);
  const request = { model: 'gpt-4o-mini-tts', input: 'abcdefghij', voice: 'coral', response_format: 'pcm' };
  const plain = (await post(fake, '/v1/audio/speech', request)).body;
  const answer = await post(fake, '/v1/audio/speech', { ...request, stream_format: 'sse' });
  t.equal(answer.headers['content-type'], 'text/event-stream; charset=utf-8');
  const raw = answer.body.toString('utf8');
  t.notOk(raw.includes('event:'));
  const events = raw
    .slice(0, -2)
    .split('\n\n')
    .map((block) => JSON.parse(block.slice('data: '.length)));
  t.ok(events.length >= 3);
  t.ok(events.slice(0, -1).every((event) => event.type === 'speech.audio.delta'));
  t.same(Buffer.concat(events.slice(0, -1).map((event) => Buffer.from(event.audio, 'base64'))), plain);
  t.match(events.at(-1), { type: 'speech.audio.done', usage: { input_tokens: Number, output_tokens: Number, total_tokens: Number } });
  t.match(json(await post(fake, '/v1/audio/speech', { ...request, model: 'tts-1', stream_format: 'sse' })), { error: { param: 'stream_format' } });
});

t.test('speech refuses what OpenAI refuses and plays an audio behaviour as given', async (t) => {
  const fake = await startFake(t);
  const base = { model: 'tts-1', input: 'hi', voice: 'alloy' };
  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ ...base, input: 'x'.repeat(4097) }, 'input'],
    [{ ...base, voice: undefined }, 'voice'],
    [{ ...base, voice: 'robot' }, 'voice'],
    [{ ...base, response_format: 'ogg' }, 'response_format'],
    [{ ...base, speed: 4.5 }, 'speed'],
    [{ ...base, speed: 0.1 }, 'speed'],
  ];
  for (const [body, param] of refusals) {
    const answer = await post(fake, '/v1/audio/speech', body);
    t.equal(answer.status, 400, param);
    t.match(json(answer), { error: { type: 'invalid_request_error', param } });
  }
  t.equal((await post(fake, '/v1/audio/speech', { ...base, input: 'x'.repeat(4096) })).status, 200, '4096 characters are fine');

  fake.next({ audio: [Buffer.from('abc'), Buffer.from('def')] });
  const scripted = await post(fake, '/v1/audio/speech', base);
  t.equal(scripted.body.toString('utf8'), 'abcdef');
});

const wavUpload = (seconds: number) => ({ name: 'speech.wav', bytes: wavFile(pcmTone(seconds)) });

t.test('a transcription answers json with usage in whole seconds measured from the WAV', async (t) => {
  const fake = await startFake(t);
  const file = wavUpload(1.5);
  const answer = await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1' }, file);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json');
  t.same(json(answer), { text: 'Transcript of speech.wav.', usage: { type: 'duration', seconds: 2 } });
  const recorded = fake.requests[0]!;
  t.match(recorded.headers['content-type'], /^multipart\/form-data; boundary=/);
  t.ok(recorded.raw.includes(file.bytes), 'the raw multipart bytes are recorded, the file inside them intact');
  t.ok(recorded.raw.length > recorded.text.length / 2);
});

t.test('verbose_json has the keys of the recorded transcription, in its order', async (t) => {
  const fake = await startFake(t);
  fake.next({ text: 'Galileo was an American robotic space program.' });
  const answer = await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'word', language: 'en' }, wavUpload(2));
  const body = json(answer);
  t.same(Object.keys(body), Object.keys(verboseFixture));
  t.same(Object.keys(body.words[0]), Object.keys(verboseFixture.words[0]));
  t.match(body, { task: 'transcribe', language: 'english', duration: 2, usage: { type: 'duration', seconds: 2 } });
  t.same(
    body.words.map((word: { word: string }) => word.word),
    ['Galileo', 'was', 'an', 'American', 'robotic', 'space', 'program'],
  );
  t.equal(body.words[0].start, 0);
  t.equal(body.words.at(-1).end, 2);

  const both = json(await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'] }, wavUpload(1)));
  t.same(Object.keys(both), ['task', 'language', 'duration', 'text', 'words', 'segments', 'usage']);
  t.same(Object.keys(both.segments[0]), ['id', 'seek', 'start', 'end', 'text', 'tokens', 'temperature', 'avg_logprob', 'compression_ratio', 'no_speech_prob']);
  const plain = json(await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json' }, { name: 'clip.mp3', bytes: Buffer.from('ID3') }));
  t.same(Object.keys(plain), ['task', 'language', 'duration', 'text', 'segments', 'usage'], 'segments are the default granularity');
  t.equal(plain.duration, 3, 'audio that is not WAV gets the default length');
});

t.test('text, srt and vtt transcriptions are plain text in their own layouts', async (t) => {
  const fake = await startFake(t);
  const fields = (format: string) => ({ model: 'whisper-1', response_format: format });
  fake.next({ text: 'First sentence. Second one here.' });
  const text = await upload(fake, '/v1/audio/transcriptions', fields('text'), wavUpload(2));
  t.equal(text.headers['content-type'], 'text/plain; charset=utf-8');
  t.equal(text.body.toString('utf8'), 'First sentence. Second one here.\n');
  fake.next({ text: 'First sentence. Second one here.' });
  const srt = (await upload(fake, '/v1/audio/transcriptions', fields('srt'), wavUpload(2))).body.toString('utf8');
  t.equal(srt, '1\n00:00:00,000 --> 00:00:00,800\nFirst sentence.\n\n2\n00:00:00,800 --> 00:00:02,000\nSecond one here.\n\n');
  fake.next({ text: 'First sentence. Second one here.' });
  const vtt = (await upload(fake, '/v1/audio/transcriptions', fields('vtt'), wavUpload(2))).body.toString('utf8');
  t.equal(vtt, 'WEBVTT\n\n00:00:00.000 --> 00:00:00.800\nFirst sentence.\n\n00:00:00.800 --> 00:00:02.000\nSecond one here.\n\n');
});

t.test('a translation is task translate without words or usage', async (t) => {
  const fake = await startFake(t);
  const body = json(await upload(fake, '/v1/audio/translations', { model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'word' }, wavUpload(1)));
  t.same(Object.keys(body), ['task', 'language', 'duration', 'text', 'segments'], 'no words even when asked for');
  t.match(body, { task: 'translate', language: 'english', text: 'Translation of speech.wav.' });
  t.same(json(await upload(fake, '/v1/audio/translations', { model: 'whisper-1' }, wavUpload(1))), { text: 'Translation of speech.wav.' });
});

t.test('duration null leaves duration and usage out of the transcription', async (t) => {
  const fake = await startFake(t);
  fake.next({ duration: null });
  t.same(json(await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1' }, wavUpload(1))), { text: 'Transcript of speech.wav.' });
  fake.next({ duration: null, text: 'hi' });
  const verbose = json(await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json' }, wavUpload(1)));
  t.same(Object.keys(verbose), ['task', 'language', 'text', 'segments']);
  fake.next({ duration: 36.71 });
  t.same(json(await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1', response_format: 'verbose_json' }, wavUpload(1))).duration, 36.709999084472656, 'a 32-bit float, as recorded');
});

t.test('gpt-4o transcription models bill tokens and speak only json and text', async (t) => {
  const fake = await startFake(t);
  const body = json(await upload(fake, '/v1/audio/transcriptions', { model: 'gpt-4o-transcribe' }, wavUpload(1)));
  t.match(body.usage, { type: 'tokens', input_tokens: Number, input_token_details: { text_tokens: 0, audio_tokens: Number }, output_tokens: Number, total_tokens: Number });
  const refused = await upload(fake, '/v1/audio/transcriptions', { model: 'gpt-4o-transcribe', response_format: 'verbose_json' }, wavUpload(1));
  t.equal(refused.status, 400);
  t.match(json(refused), { error: { param: 'response_format' } });
  const diarized = json(await upload(fake, '/v1/audio/transcriptions', { model: 'gpt-4o-transcribe-diarize', response_format: 'diarized_json' }, wavUpload(1)));
  t.match(diarized, { task: 'transcribe', segments: [{ type: 'transcript.text.segment', id: 'seg_001', speaker: 'A' }], usage: { type: 'tokens' } });
});

t.test('a transcription without file or model, or with an unsupported file, is refused like OpenAI', async (t) => {
  const fake = await startFake(t);
  const noFile = await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1' });
  t.equal(noFile.status, 400);
  t.match(json(noFile), { error: { param: 'file', type: 'invalid_request_error' } });
  t.match(json(await upload(fake, '/v1/audio/transcriptions', {}, wavUpload(1))), { error: { param: 'model' } });
  const badFile = await upload(fake, '/v1/audio/transcriptions', { model: 'whisper-1' }, { name: 'notes.txt', bytes: Buffer.from('hi') });
  t.equal(badFile.status, 400);
  t.same(json(badFile), {
    error: {
      message: "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
      type: 'invalid_request_error',
      param: null,
      code: null,
    },
  });
  t.equal((await post(fake, '/v1/audio/transcriptions', { model: 'whisper-1' })).status, 400, 'JSON is not an upload');
});

t.test('chat completions still answer as before', async (t) => {
  const fake = await startFake(t);
  const answer = await post(fake, '/v1/chat/completions', { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'hi' }], stream: true });
  const raw = answer.body.toString('utf8');
  t.ok(raw.endsWith('data: [DONE]\n\n'));
  t.notOk(raw.includes('event:'));
});

t.test('contentFilter stops a chat answer before any content with finish_reason content_filter, streamed or not', async (t) => {
  const fake = await startFake(t);
  fake.next({ contentFilter: true });
  const whole = json(await post(fake, '/v1/chat/completions', { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'forbidden' }] }));
  t.match(whole.choices, [{ index: 0, message: { role: 'assistant', content: null, refusal: null }, finish_reason: 'content_filter' }]);
  t.match(whole.usage, { prompt_tokens: 4, completion_tokens: 0, total_tokens: 4 }, 'the prompt is counted, no completion');

  fake.next({ contentFilter: true });
  const raw = (await post(fake, '/v1/chat/completions', { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'forbidden' }], stream: true, stream_options: { include_usage: true } })).body.toString('utf8');
  const chunks = raw.split('\n\n').filter((block) => block.startsWith('data: {')).map((block) => JSON.parse(block.slice('data: '.length)));
  t.same(chunks.map((chunk) => chunk.choices.map((choice: { delta: unknown; finish_reason: unknown }) => [choice.delta, choice.finish_reason])), [
    [[{ role: 'assistant', content: '', refusal: null }, null]],
    [[{}, 'content_filter']],
    [],
  ], 'the role chunk, the finish chunk, the usage chunk');
  t.match(chunks.at(-1).usage, { completion_tokens: 0 });
  t.ok(raw.endsWith('data: [DONE]\n\n'));
});

t.test('with models given, a JSON or multipart request for another model is a 404 model_not_found, and a given one is answered', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey, models: ['gpt-5.4'] });
  t.teardown(() => fake.close());
  const unknown = await post(fake, '/v1/chat/completions', { model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] });
  t.equal(unknown.status, 404);
  t.match(JSON.parse(unknown.body.toString('utf8')), { error: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model `gpt-nope` does not exist or you do not have access to it.' } });
  const form = await multipart({ model: 'whisper-nope' }, { name: 'clip.wav', bytes: wavFile(pcmTone(0.1)) });
  t.equal((await post(fake, '/v1/audio/transcriptions', form.body, { 'content-type': form.contentType })).status, 404, 'the multipart field counts too');
  t.equal((await post(fake, '/v1/chat/completions', { model: 'gpt-5.4', messages: [{ role: 'user', content: 'hi' }] })).status, 200);
});
