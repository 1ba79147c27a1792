import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { AddressInfo } from 'node:net';
import OpenAI, { APIError, toFile } from 'openai';
import t, { type Test } from 'tap';
import { request as undiciRequest } from 'undici';
import { startFakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { listeningUrl, startCliGateway } from '../helpers/cli-gateway-process.js';
import { gxUpstreamKey } from '../helpers/gateway-scenario.js';
import { issueProcessToken, processGatewayConfig } from './process-gateway.js';

// Found by an attack from outside: the gateway answered 413 to a body over the limit and
// closed at once while the client was still writing; the client's TCP stack then dropped the
// answer, and the openai SDK (fetch) reported EPIPE. Now it drains the rest for a bounded time
// (lingering close). The gateway runs as a process of its own, as in production: with client
// and server in one event loop the reset rarely overtakes the answer.

const mebibyte = 1024 * 1024;
const overLimit = 33 * mebibyte;
const tooLarge = /the request body is larger than the 32 MB limit \(server\.body_limit_mb\); send a smaller body/;
const tries = 2;

/** A body of `size` bytes streamed in 1 MiB chunks, with no declared length. */
const streamOf = (size: number) => {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(new Uint8Array(Math.min(mebibyte, size - sent)).fill(0x61));
      sent += mebibyte;
    },
  });
};

t.test('clients that write the whole body before reading read the early answer', async (t) => {
  const upstream = await startFakeGxUpstream({ apiKey: gxUpstreamKey });
  t.teardown(() => upstream.close());
  const setup = processGatewayConfig(t, upstream.url);
  const gateway = startCliGateway(t, setup.file);
  const base = listeningUrl(await gateway.waitForLog(/^Server listening at /));
  const token = await issueProcessToken(base, setup);
  const json = { ...token.bearer, 'content-type': 'application/json' };
  const big = Buffer.alloc(overLimit, 0x61);

  const client = new OpenAI({ apiKey: token.bearer.authorization.slice('Bearer '.length), baseURL: `${base}/v1`, maxRetries: 0 });
  /** Uploads `file` through the SDK's transcription and image edit calls, `tries` times each, and requires a 413 APIError whose message matches. */
  const assertSdkReads413 = async (t: Test, file: Buffer, message: RegExp) => {
    const uploads: Array<[string, () => Promise<unknown>]> = [
      ['audio.transcriptions.create', async () => client.audio.transcriptions.create({ model: 'stt-1', file: await toFile(file, 'talk.wav', { type: 'audio/wav' }) })],
      ['images.edit', async () => client.images.edit({ model: 'gi-2', image: await toFile(file, 'in.png', { type: 'image/png' }), prompt: 'make it blue' })],
    ];
    for (const [call, upload] of uploads) {
      for (let attempt = 1; attempt <= tries; attempt += 1) {
        const error = await upload().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        t.ok(error instanceof APIError && error.status === 413, `${call} #${attempt}: an APIError with status 413 (got ${String(error)})`);
        if (error instanceof APIError) t.match(error.message, message, `${call} #${attempt}: the message says what to change`);
      }
    }
  };

  t.test('the openai SDK uploading a file over server.body_limit_mb gets an APIError with status 413 and the gateway message', async (t) => {
    await assertSdkReads413(t, big, tooLarge);
  });

  t.test('the openai SDK uploading a file over its own limit, refused in the middle of the form, gets an APIError with status 413 naming the limit', async (t) => {
    // Under server.body_limit_mb, so the form is read until the file passes its limit: 20 MiB for images, 25 MiB for audio.
    await assertSdkReads413(t, Buffer.alloc(30 * mebibyte, 0x61), /larger than the (upload )?limit of \d+ (bytes|MB); send a/);
  });

  /** Answers `send` gave, each as `<status> <body>`, or the error it threw. */
  const answers = async (send: () => Promise<{ status: number; body: string }>): Promise<string[]> => {
    const seen: string[] = [];
    for (let attempt = 1; attempt <= tries; attempt += 1) {
      seen.push(await send().then(({ status, body }) => `${status} ${body}`, (error: Error & { cause?: { code?: string } }) => `failed: ${error.message} ${error.cause?.code ?? ''}`));
    }
    return seen;
  };
  const assertAnswered = (t: Test, seen: string[], status: number, message: RegExp, what: string) => {
    seen.forEach((answer, index) => {
      t.match(answer, new RegExp(`^${status} `), `${what} #${index + 1}: the ${status} is read (${answer.slice(0, 120)})`);
      t.match(answer, message, `${what} #${index + 1}: with the gateway's message`);
    });
  };
  const viaFetch = (headers: Record<string, string>, body: Buffer | ReadableStream<Uint8Array>) => async () => {
    const response = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    return { status: response.status, body: await response.text() };
  };
  const viaUndici = (headers: Record<string, string>, body: Buffer | ReadableStream<Uint8Array>) => async () => {
    const response = await undiciRequest(`${base}/v1/chat/completions`, { method: 'POST', headers, body: Buffer.isBuffer(body) ? body : Readable.fromWeb(body as NodeReadableStream) });
    return { status: response.statusCode, body: await response.body.text() };
  };

  t.test('fetch POSTing a 33 MiB JSON body with Content-Length reads the 413', async (t) => {
    assertAnswered(t, await answers(viaFetch(json, big)), 413, tooLarge, 'fetch');
  });

  t.test('fetch streaming a 33 MiB body without Content-Length reads the 413', async (t) => {
    assertAnswered(t, await answers(() => viaFetch(json, streamOf(overLimit))()), 413, tooLarge, 'fetch, streamed');
  });

  t.test('undici.request with a 33 MiB body, with and without Content-Length, reads the 413', async (t) => {
    assertAnswered(t, await answers(viaUndici(json, big)), 413, tooLarge, 'undici');
    assertAnswered(t, await answers(() => viaUndici(json, streamOf(overLimit))()), 413, tooLarge, 'undici, streamed');
  });

  t.test('an upload without a key reads its 401, refused before the body is read', async (t) => {
    const keyless = { 'content-type': 'application/json' };
    const missingKey = /missing API key/;
    assertAnswered(t, await answers(viaFetch(keyless, Buffer.alloc(30 * mebibyte, 0x61))), 401, missingKey, 'fetch, 30 MiB with Content-Length');
    assertAnswered(t, await answers(() => viaFetch(keyless, streamOf(overLimit))()), 401, missingKey, 'fetch, 33 MiB streamed');
    assertAnswered(t, await answers(() => viaUndici(keyless, streamOf(overLimit))()), 401, missingKey, 'undici, 33 MiB streamed');
  });
});

/** A client that never stops sending its body and never closes its side, even after the server's FIN. */
interface EndlessSender {
  /** Resolves once the server cut the connection, with what the server sent. */
  cut: Promise<string>;
  /** Bytes of body handed to the connection so far. */
  written(): number;
}

function sendForever(port: number, head: string, chunk: Buffer, pauseMilliseconds: number): EndlessSender {
  const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const received: Buffer[] = [];
  socket.on('data', (piece: Buffer) => received.push(piece));
  // Writing into a connection the server cut fails with EPIPE or ECONNRESET; the close says the rest.
  socket.on('error', () => {});
  let stopped = false;
  let written = 0;
  const cut = new Promise<string>((resolve) => {
    socket.once('close', () => {
      stopped = true;
      resolve(Buffer.concat(received).toString('latin1'));
    });
  });
  const pump = () => {
    if (stopped || socket.destroyed) return;
    written += chunk.length;
    const more = socket.write(chunk);
    if (pauseMilliseconds > 0) setTimeout(pump, pauseMilliseconds);
    else if (more) setImmediate(pump);
    else socket.once('drain', pump);
  };
  socket.once('connect', () => {
    socket.write(head);
    pump();
  });
  return { cut, written: () => written };
}

t.test('a client that keeps sending after the answer is cut off once the linger is over', async (t) => {
  const listening = async (server: Record<string, unknown>) => {
    const { app } = await buildTestApp(t, 'memory', { server: { body_limit_mb: 1, ...server } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  };
  const chunked = 'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
  const declared = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 * mebibyte}\r\n\r\n`;

  t.test('by server.lingering_close_ms: a slow endless chunked body without a key gets its 401, then the connection is closed', async (t) => {
    // 4 KiB every 20 ms would take over an hour to reach the byte bound: only the time bound ends it.
    const port = await listening({ lingering_close_ms: 300, lingering_close_max_mb: 1024 });
    const answer = await sendForever(port, chunked, Buffer.from(`1000\r\n${'a'.repeat(4096)}\r\n`), 20).cut;
    t.match(answer, /^HTTP\/1\.1 401 /, 'the 401 came first');
    t.match(answer, /\r\nconnection: close\r\n/i, 'saying the connection closes');
  });

  t.test('by server.lingering_close_max_mb: a fast endless body declaring 1 GiB gets its 413, then the connection is closed after about that many bytes', async (t) => {
    // The time bound is a minute: only the byte bound ends it sooner.
    const port = await listening({ lingering_close_ms: 60_000, lingering_close_max_mb: 2 });
    const sender = sendForever(port, declared, Buffer.alloc(64 * 1024, 0x61), 0);
    const answer = await sender.cut;
    t.match(answer, /^HTTP\/1\.1 413 /, 'the 413 came first');
    t.ok(sender.written() < 32 * mebibyte, `the client got to send ${sender.written()} bytes: the 2 MiB drained and what the socket buffers held`);
  });
});
