import type { AddressInfo } from 'node:net';
import t from 'tap';
import { httpCall } from '../helpers/http-call.js';
import { chatBody, gxChannel, issueToken, nativeBody, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';
import { openRawConnection, type RawConnection } from '../helpers/raw-connection.js';

// Found by an attack from outside: a request whose body stalled or trickled stayed open
// indefinitely (15 of 15 still open after 130 s), and slow headers were cut only by Node's
// 60 s default. Each bound is configured small here; an attacking connection that is still
// open long after its bound fails the test.

const headersTimeout = 500;
const requestTimeout = 1000;
const keepAliveTimeout = 500;
/** Room for the server's periodic check and a loaded machine; an attack goes on for much longer than bound + slack. */
const slack = 3000;
const attackMilliseconds = 12_000;

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Writes one piece every `everyMilliseconds` until the server closes the connection or the attack is over. */
async function trickle(connection: RawConnection, piece: () => string, everyMilliseconds: number): Promise<void> {
  const until = Date.now() + attackMilliseconds;
  while (!connection.isClosed() && Date.now() < until) {
    connection.write(piece());
    await pause(everyMilliseconds);
  }
}

t.test('slow clients are cut off at the configured bounds while other clients are served, and a quiet stream is not', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, {
    server: { headers_timeout_ms: headersTimeout, request_timeout_ms: requestTimeout, keep_alive_timeout_ms: keepAliveTimeout },
    providers: [gxChannel('gx-main', fake.url)],
  });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const auth = `Authorization: ${token.bearer.authorization}\r\n`;

  const attacks: Array<[string, number, (connection: RawConnection) => Promise<void>]> = [
    [
      'headers sent byte by byte',
      headersTimeout,
      (connection) => {
        const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n${auth}X-Padding: ${'a'.repeat(10_000)}`;
        let sent = 0;
        return trickle(connection, () => head[sent++] ?? 'a', 50);
      },
    ],
    [
      'a JSON body that stalls after its first bytes',
      requestTimeout,
      async (connection) => {
        connection.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":`);
      },
    ],
    [
      'a multipart body that stalls after its first part',
      requestTimeout,
      async (connection) => {
        const part = '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\ngx-2.5-flash-image\r\n';
        connection.write(`POST /v1/images/edits HTTP/1.1\r\nHost: gateway\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n${part}`);
      },
    ],
    [
      'a chunked body trickled a byte at a time, never finished',
      requestTimeout,
      async (connection) => {
        connection.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        await trickle(connection, () => '1\r\n \r\n', 50);
      },
    ],
    [
      'a keep-alive connection left idle after its request',
      keepAliveTimeout,
      async (connection) => {
        connection.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
      },
    ],
  ];

  const opened = await Promise.all(attacks.map(() => openRawConnection(port)));
  const running = attacks.map(([, , attack], index) => attack(opened[index]!));

  const served = t.test('other clients keep being answered during the attack', async (t) => {
    for (let round = 0; round < 3; round += 1) {
      const health = await httpCall(`${base}/healthz`);
      t.equal(health.status, 200, `health, round ${round + 1}`);
      const chat = await httpCall(`${base}/v1/chat/completions`, { headers: token.bearer, body: chatBody('hello') });
      t.equal(chat.status, 200, `chat, round ${round + 1}`);
      await pause(300);
    }
  });

  const closedAfter = await Promise.all(opened.map((connection) => Promise.race([connection.closed, pause(attackMilliseconds).then(() => Infinity)])));
  await Promise.all([...running, served]);
  attacks.forEach(([what, bound], index) => {
    t.ok(closedAfter[index]! <= bound + slack, `${what}: closed by the gateway within ${bound} ms and the slack (after ${closedAfter[index]} ms)`);
    opened[index]!.destroy();
  });

  t.test('a stream silent for longer than every bound is not cut', async (t) => {
    fake.next({ stallAfterChunks: 1, stallMs: requestTimeout + keepAliveTimeout + headersTimeout });
    const streamed = await httpCall(`${base}/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse`, { headers: token.bearer, body: nativeBody('one two three four') });
    t.equal(streamed.status, 200);
    t.match(streamed.body, /"finishReason":\s*"STOP"/, 'the stream ran to its end');
    t.ok(streamed.body.split('data: ').length > 2, 'with the chunks before and after the silence');
  });

  t.test('an upstream slower to answer than every bound does not cut the request', async (t) => {
    fake.next({ stallBeforeHeadersMs: requestTimeout + keepAliveTimeout + headersTimeout });
    const chat = await httpCall(`${base}/v1/chat/completions`, { headers: token.bearer, body: chatBody('hello') });
    t.equal(chat.status, 200);
    t.match(chat.json(), { object: 'chat.completion' });
  });
});
