import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { errors as undiciErrors } from 'undici';
import type { ChannelTimeouts } from '../../../core/contracts/provider/operation-call.js';
import type { UpstreamRequest } from '../../../core/contracts/provider/upstream-http.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { Deadline } from '../../../core/http/deadline.js';
import { mapUndiciError } from '../../../core/http/map-undici-error.js';
import { UndiciUpstreamHttp } from '../../../core/http/upstream-client.js';

const generous: ChannelTimeouts = { connectMilliseconds: 2_000, firstByteMilliseconds: 5_000, idleMilliseconds: 5_000, totalMilliseconds: 10_000 };

async function startServer(t: Test, handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function startClient(t: Test): UndiciUpstreamHttp {
  const client = new UndiciUpstreamHttp({ keepAliveTimeoutMilliseconds: 10 });
  t.teardown(() => client.close());
  return client;
}

const get = (url: string, timeouts: Partial<ChannelTimeouts> = {}, signal = new AbortController().signal): UpstreamRequest => ({
  method: 'GET',
  url,
  signal,
  timeouts: { ...generous, ...timeouts },
});

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk).toString('utf8'));
  return chunks;
}

t.test('a JSON answer arrives with its status, headers and parsed body', async (t) => {
  const origin = await startServer(t, (request, response) => {
    let received = '';
    request.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      response.end(JSON.stringify({ path: request.url, method: request.method, received, authorization: request.headers.authorization }));
    });
  });
  const client = startClient(t);
  const response = await client.request({
    ...get(`${origin}/v1/things?alt=sse`),
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: '{"hello":"world"}',
  });
  t.equal(response.statusCode, 201);
  t.equal(response.headers['x-upstream'], 'yes');
  t.same(await response.body.json(), { path: '/v1/things?alt=sse', method: 'POST', received: '{"hello":"world"}', authorization: 'Bearer sk-test' });
});

t.test('a streamed body is iterated chunk by chunk as the upstream sends it', async (t) => {
  const origin = await startServer(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: one\n\n');
    setTimeout(() => response.write('data: two\n\n'), 30);
    setTimeout(() => response.end('data: [DONE]\n\n'), 60);
  });
  const client = startClient(t);
  const response = await client.request(get(origin));
  t.equal((await readAll(response.body)).join(''), 'data: one\n\ndata: two\n\ndata: [DONE]\n\n');
});

t.test('a refused connection is a retryable 502 naming the error code', async (t) => {
  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const port = (closed.address() as AddressInfo).port;
  closed.close();
  await once(closed, 'close');
  const client = startClient(t);
  const error = await rejection(client.request(get(`http://127.0.0.1:${port}/`)));
  t.equal(error.statusCode, 502);
  t.equal(error.code, 'upstream_unreachable');
  t.equal(error.retryable, true);
  t.equal(error.message, 'could not reach the upstream: ECONNREFUSED');
});

t.test('an upstream that sends no headers in time is a retryable 504 that names the first-byte limit', async (t) => {
  const origin = await startServer(t, () => {
    // Never answers.
  });
  const client = startClient(t);
  const error = await rejection(client.request({ ...get(origin, { firstByteMilliseconds: 100 }), headers: { authorization: 'Bearer sk-canary-secret' } }));
  t.equal(error.statusCode, 504);
  t.equal(error.code, 'upstream_timeout');
  t.equal(error.retryable, true);
  t.match(error.message, /no response within 100 ms/);
  t.notMatch(`${error.message} ${String(error.cause)} ${JSON.stringify(error)}`, /sk-canary-secret/, 'request headers stay out of the error');
});

t.test('a body that stalls mid-stream fails the iteration with a retryable idle timeout', async (t) => {
  const origin = await startServer(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
    // Then silence.
  });
  const client = startClient(t);
  const response = await client.request(get(origin, { idleMilliseconds: 150 }));
  const chunks: string[] = [];
  const error = await rejection(
    (async () => {
      for await (const chunk of response.body) chunks.push(Buffer.from(chunk).toString('utf8'));
    })(),
  );
  t.same(chunks, ['data: first\n\n']);
  t.equal(error.statusCode, 504);
  t.equal(error.code, 'upstream_timeout');
  t.equal(error.retryable, true);
  t.match(error.message, /silent for 150 ms/);
});

t.test('a call past its total limit fails with a 504 even while chunks keep arriving', async (t) => {
  const origin = await startServer(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => response.write(': ping\n\n'), 20);
    response.on('close', () => clearInterval(timer));
  });
  const client = startClient(t);
  const started = Date.now();
  const response = await client.request(get(origin, { idleMilliseconds: 1_000, totalMilliseconds: 250 }));
  const error = await rejection(readAll(response.body));
  t.equal(error.statusCode, 504);
  t.equal(error.code, 'upstream_timeout');
  t.equal(error.retryable, true);
  t.match(error.message, /did not finish within 250 ms/);
  t.ok(Date.now() - started < 1_000, 'stopped at the total limit');
});

t.test('the total limit also covers the wait for headers', async (t) => {
  const origin = await startServer(t, () => {
    // Never answers.
  });
  const client = startClient(t);
  const error = await rejection(client.request(get(origin, { totalMilliseconds: 100 })));
  t.equal(error.statusCode, 504);
  t.match(error.message, /did not finish within 100 ms/);
});

t.test('a caller abort before the answer is a 499 that is not retried', async (t) => {
  const origin = await startServer(t, () => {
    // Never answers.
  });
  const client = startClient(t);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const error = await rejection(client.request(get(origin, {}, controller.signal)));
  t.equal(error.statusCode, 499);
  t.equal(error.code, 'client_closed_request');
  t.equal(error.retryable, false);
});

t.test('a caller abort while the body streams is a 499 from the iteration, and the upstream connection closes', async (t) => {
  let upstreamClosed: Promise<unknown> = Promise.resolve();
  const origin = await startServer(t, (_request, response) => {
    upstreamClosed = once(response, 'close');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
  });
  const client = startClient(t);
  const controller = new AbortController();
  const response = await client.request(get(origin, {}, controller.signal));
  const iteration = rejection(
    (async () => {
      for await (const chunk of response.body) {
        if (Buffer.from(chunk).toString('utf8').includes('first')) controller.abort();
      }
    })(),
  );
  const error = await iteration;
  t.equal(error.statusCode, 499);
  t.equal(error.retryable, false);
  await upstreamClosed;
  t.pass('the upstream saw the connection close');
});

t.test('channels with different connect timeouts are both served', async (t) => {
  const origin = await startServer(t, (_request, response) => response.end('ok'));
  const client = startClient(t);
  const first = await client.request(get(origin, { connectMilliseconds: 1_000 }));
  const second = await client.request(get(origin, { connectMilliseconds: 3_000 }));
  t.equal(await first.body.text(), 'ok');
  t.equal(await second.body.text(), 'ok');
});

t.test('a body that is not JSON is a retryable 502 from json()', async (t) => {
  const origin = await startServer(t, (_request, response) => response.end('<html>oops</html>'));
  const client = startClient(t);
  const response = await client.request(get(origin));
  const error = await rejection(response.body.json());
  t.equal(error.statusCode, 502);
  t.equal(error.code, 'upstream_protocol_error');
  t.equal(error.retryable, true);
});

t.test('undici failures that a live server cannot easily produce map like the others', async (t) => {
  const context = () => ({ callerSignal: new AbortController().signal, deadline: new Deadline(60_000), timeouts: { ...generous, connectMilliseconds: 750 } });
  const connectTimeout = mapUndiciError(new undiciErrors.ConnectTimeoutError(), { ...context(), phase: 'response' }) as GatewayError;
  t.equal(connectTimeout.statusCode, 504);
  t.equal(connectTimeout.code, 'upstream_timeout');
  t.equal(connectTimeout.retryable, true);
  t.match(connectTimeout.message, /connect to the upstream within 750 ms/);

  const dns = mapUndiciError(Object.assign(new Error('getaddrinfo ENOTFOUND api.example'), { code: 'ENOTFOUND' }), { ...context(), phase: 'response' }) as GatewayError;
  t.equal(dns.statusCode, 502);
  t.equal(dns.message, 'could not reach the upstream: ENOTFOUND');
  t.equal(dns.retryable, true);

  const reset = mapUndiciError(new undiciErrors.SocketError('other side closed'), { ...context(), phase: 'body' }) as GatewayError;
  t.equal(reset.statusCode, 502);
  t.equal(reset.code, 'upstream_connection_lost');
  t.equal(reset.retryable, true);

  const mistake = new undiciErrors.InvalidArgumentError('invalid header');
  t.equal(mapUndiciError(mistake, { ...context(), phase: 'response' }), mistake, 'a malformed request is a bug, not an upstream failure');
});
