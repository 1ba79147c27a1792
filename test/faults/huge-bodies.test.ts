import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, scenarioGateway, scenarioPricing, type IssuedToken } from '../helpers/gateway-scenario.js';
import { answerBody, openRawConnection, type RawConnection } from '../helpers/raw-connection.js';

// Found by an attack from outside: multipart bodies ignored server.body_limit_mb. A 33 MiB
// image edit was accepted and forwarded, sixteen files of 20 MiB could be buffered for one
// request, and a multipart upload declaring 10 GiB got no answer at all, where JSON got 413.

const mebibyte = 1024 * 1024;
const boundary = 'limitboundary';
const upstreamKey = 'upstream-key';

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

const partHead = (part: Part) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: ${part.type}`}\r\n\r\n`;

/** A multipart body in pieces of at most 64 KiB, as a client streams it. */
function formPieces(parts: Part[]): Buffer[] {
  const whole = Buffer.concat([
    ...parts.flatMap((part) => [Buffer.from(partHead(part), 'latin1'), Buffer.from(part.value), Buffer.from('\r\n')]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  const pieces: Buffer[] = [];
  for (let start = 0; start < whole.length; start += 64 * 1024) pieces.push(whole.subarray(start, start + 64 * 1024));
  return pieces;
}

async function limitedGateway(t: Test, fake: FakeOpenAiUpstream, overrides: Record<string, unknown> = {}): Promise<{ gateway: TestApp; token: IssuedToken; port: number }> {
  const channel = (name: string, plugin: string, models: string[]) => ({ name, plugin, base_url: fake.url, api_key: upstreamKey, models });
  const gateway = await scenarioGateway(t, {
    server: { body_limit_mb: 1 },
    pricing: { ...scenarioPricing, 'gi-2': { per_image: 0.04 }, 'sr-2': { per_second: 0.1 }, 'stt-1': { per_minute: 0.006 } },
    providers: [channel('gi', 'gi', ['gi-2']), channel('sr', 'sr', ['sr-2']), { ...channel('audio', 'audio', ['stt-1']), model_map: { 'stt-1': 'whisper-1' } }],
    ...overrides,
  });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return { gateway, token, port: (gateway.app.server.address() as AddressInfo).port };
}

/** Waits until the server has answered and closed the connection, or gives up after `milliseconds`. */
async function answered(connection: RawConnection, milliseconds = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([connection.closed, new Promise((resolve) => (timer = setTimeout(resolve, milliseconds)))]);
  clearTimeout(timer);
  connection.destroy();
}

const head = (path: string, token: IssuedToken, headers: Record<string, string>) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${token.bearer.authorization}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

t.test('a body declaring more than server.body_limit_mb gets 413 at once, before any of it is sent, in the route dialect', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  const { port, token } = await limitedGateway(t, fake);
  const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(10 * 1024 * mebibyte) };
  const json = { 'content-type': 'application/json', 'content-length': String(10 * 1024 * mebibyte) };
  const routes: Array<[string, Record<string, string>, (error: Record<string, unknown>) => void]> = [
    ['/v1/images/edits', multipart, (body) => {
      t.match(body, { error: { code: 'body_too_large', type: 'invalid_request_error' } });
      t.same(Object.keys(body.error as object).sort(), ['code', 'message', 'type'], "the images table's shape");
    }],
    ['/v1/video/generations', multipart, (body) => t.match(body, { error: { code: 'body_too_large', type: 'invalid_request_error', param: null } })],
    ['/v1/audio/transcriptions', multipart, (body) => t.match(body, { error: { code: 'body_too_large', type: 'invalid_request_error', param: null } })],
    ['/v1/chat/completions', json, (body) => t.match(body, { error: { code: 'body_too_large', type: 'invalid_request_error' } })],
    ['/v1beta/models/gx-2.5-pro:generateContent', json, (body) => t.match(body, { error: { code: 413, status: 'INVALID_ARGUMENT' } })],
  ];
  for (const [path, headers, inDialect] of routes) {
    t.test(path, async (t) => {
      const connection = await openRawConnection(port);
      // Only the head: an answer can come only from the declared length.
      connection.write(head(path, token, headers));
      await answered(connection);
      t.equal(connection.status(), 413, 'answers 413 without waiting for the body');
      const body = JSON.parse(answerBody(connection)) as Record<string, unknown>;
      inDialect(body);
      t.match(JSON.stringify(body), /larger than the 1 MB limit \(server\.body_limit_mb\)/, 'saying the limit and its setting');
      t.match(connection.received(), /\r\nconnection: close\r\n/i, 'and closes the connection, since the rest of the body is never read');
      t.ok(connection.isClosed(), 'the connection is closed');
    });
  }
  t.test('no upstream was asked', async (t) => t.equal(fake.requests.length, 0));
});

t.test('multipart bodies with no declared length are cut with 413 once they grow past server.body_limit_mb', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  // Each file is far under its own limit (security.media.max_bytes, audio.max_upload_mb); only their sum is too much.
  const { port, token, gateway } = await limitedGateway(t, fake, { audio: { max_upload_mb: 2 } });
  const image = (index: number): Part => ({ name: 'image[]', value: Buffer.alloc(400 * 1024, index), filename: `in-${index}.png`, type: 'image/png' });
  const cases: Array<[string, string, Part[]]> = [
    ['three images of 400 KiB in one edit', '/v1/images/edits', [{ name: 'model', value: 'gi-2' }, { name: 'prompt', value: 'add a boat' }, image(1), image(2), image(3)]],
    ['two reference images of 400 KiB and a long prompt in a video', '/v1/video/generations', [{ name: 'model', value: 'sr-2' }, image(1), image(2), { name: 'prompt', value: 'a'.repeat(400 * 1024) }]],
    ['one recording of 1.5 MiB, under audio.max_upload_mb', '/v1/audio/transcriptions', [{ name: 'model', value: 'stt-1' }, { name: 'file', value: Buffer.alloc(1.5 * mebibyte, 7), filename: 'long.wav', type: 'audio/wav' }]],
  ];
  for (const [what, path, parts] of cases) {
    t.test(`${path}: ${what}`, async (t) => {
      const connection = await openRawConnection(port);
      connection.write(head(path, token, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' }));
      // Like an HTTP client that reads while it sends, it stops sending once the answer came.
      for (const piece of formPieces(parts)) {
        if (connection.status() !== undefined) break;
        connection.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      connection.write('0\r\n\r\n');
      await answered(connection);
      t.equal(connection.status(), 413);
      t.match(JSON.parse(answerBody(connection)), { error: { code: 'body_too_large', message: /larger than the 1 MB limit/ } });
      t.ok(connection.isClosed(), 'the connection is closed');
    });
  }
  t.test('no upstream was asked and nothing failed on the server', async (t) => {
    t.equal(fake.requests.length, 0);
    t.same(gateway.logLines.filter((line) => line.includes('"level":50')), []);
  });
});

t.test('a multipart body under server.body_limit_mb streamed with no declared length is still read whole', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  const { port, token } = await limitedGateway(t, fake);
  const connection = await openRawConnection(port);
  connection.write(head('/v1/images/edits', token, { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', connection: 'close' }));
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  for (const piece of formPieces([{ name: 'model', value: 'gi-2' }, { name: 'prompt', value: 'add a boat' }, { name: 'image[]', value: png, filename: 'in.png', type: 'image/png' }])) {
    connection.write(`${piece.length.toString(16)}\r\n`);
    connection.write(Buffer.concat([piece, Buffer.from('\r\n')]));
  }
  connection.write('0\r\n\r\n');
  await answered(connection);
  t.equal(connection.status(), 200, answerBody(connection));
  t.equal(fake.requests.length, 1, 'the edit went upstream');
});
