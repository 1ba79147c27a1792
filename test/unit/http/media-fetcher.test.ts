import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import type { HostResolver } from '../../../core/http/media-address-policy.js';
import { GuardedMediaFetcher, type GuardedMediaFetcherOptions, type MediaSecurityConfig } from '../../../core/http/media-fetcher.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** A loopback server that counts the connections it was offered and records request headers. */
interface TestServer {
  origin: string;
  port: number;
  connections: number;
  requests: IncomingHttpHeaders[];
}

async function startServer(t: Test, handler: (request: IncomingMessage, response: ServerResponse, server: TestServer) => void): Promise<TestServer> {
  const state: TestServer = { origin: '', port: 0, connections: 0, requests: [] };
  const server = createServer((request, response) => {
    state.requests.push(request.headers);
    handler(request, response, state);
  });
  server.on('connection', () => state.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}

function startFetcher(t: Test, config: Partial<MediaSecurityConfig> = {}, options: GuardedMediaFetcherOptions = {}): GuardedMediaFetcher {
  const fetcher = new GuardedMediaFetcher({ max_bytes: 1_000_000, timeout_ms: 5_000, allow_private_networks: false, allow_hosts: [], check_vendor_fetched_urls: true, ...config }, options);
  t.teardown(() => fetcher.close());
  return fetcher;
}

/** Records every connection undici starts, to prove a refusal came before any network traffic. */
function watchConnectAttempts(t: Test): string[] {
  const attempts: string[] = [];
  const listener = (message: unknown) => attempts.push(String((message as { connectParams: { hostname: string } }).connectParams.hostname));
  subscribe('undici:client:beforeConnect', listener);
  t.teardown(() => unsubscribe('undici:client:beforeConnect', listener));
  return attempts;
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

t.test('data URIs', async (t) => {
  const fetcher = startFetcher(t, { max_bytes: 64 });

  t.test('a base64 data URI is decoded with the MIME type it declares', async (t) => {
    const media = await fetcher.fetch(`data:Image/PNG;base64,${png.toString('base64')}`);
    t.equal(media.mimeType, 'image/png');
    t.same(media.data, png);
  });

  t.test('a percent-encoded data URI is decoded byte by byte', async (t) => {
    const media = await fetcher.fetch('data:text/plain;charset=utf-8,caf%C3%A9%20au%20lait');
    t.equal(media.mimeType, 'text/plain');
    t.equal(media.data.toString('utf8'), 'café au lait');
  });

  t.test('a data URI without a MIME type is sniffed', async (t) => {
    t.equal((await fetcher.fetch(`data:;base64,${png.toString('base64')}`)).mimeType, 'image/png');
  });

  t.test('a data URI past the size cap is refused', async (t) => {
    const error = await rejection(fetcher.fetch(`data:application/octet-stream;base64,${Buffer.alloc(65).toString('base64')}`));
    t.equal(error.statusCode, 400);
    t.equal(error.code, 'media_too_large');
    t.match(error.message, /64 bytes/);
  });

  t.test('a malformed data URI is an invalid media URL', async (t) => {
    t.equal((await rejection(fetcher.fetch('data:image/png;base64'))).code, 'invalid_media_url');
    t.equal((await rejection(fetcher.fetch('data:image/png;base64,***'))).code, 'invalid_media_url');
  });

  t.test('a data URI whose MIME type is not accepted is refused with the accepted list', async (t) => {
    const error = await rejection(fetcher.fetch('data:text/plain,hello', { allowedMimeTypes: ['image/png', 'image/jpeg'] }));
    t.equal(error.code, 'unsupported_media_type');
    t.match(error.message, 'text/plain');
    t.match(error.message, 'image/png, image/jpeg');
  });
});

t.test('schemes other than http and https are refused', async (t) => {
  const fetcher = startFetcher(t);
  for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'gopher://example.com/', 'not a url']) {
    const error = await rejection(fetcher.fetch(url));
    t.equal(error.statusCode, 400, url);
    t.equal(error.code, 'invalid_media_url', url);
  }
});

t.test('addresses that are not public are refused before any connection is made', async (t) => {
  const server = await startServer(t, (_request, response) => response.end('secret'));
  const attempts = watchConnectAttempts(t);
  const fetcher = startFetcher(t);
  const urls = [
    `http://127.0.0.1:${server.port}/`,
    `http://2130706433:${server.port}/`,
    `http://[::1]:${server.port}/`,
    `http://[::ffff:127.0.0.1]:${server.port}/`,
    `http://[::ffff:10.0.0.1]/`,
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://255.255.255.255/',
    'http://224.0.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/',
  ];
  for (const url of urls) {
    const error = await rejection(fetcher.fetch(url));
    t.equal(error.statusCode, 400, url);
    t.equal(error.code, 'media_url_not_allowed', url);
  }
  t.match((await rejection(fetcher.fetch('http://10.0.0.1/'))).message, /use a public http\(s\) URL, or send the media inline as a data: URI.*security\.media\.allow_hosts/);
  t.same(attempts, [], 'undici never started a connection');
  t.equal(server.connections, 0);
});

t.test('a host name that resolves to loopback is refused without connecting', async (t) => {
  const server = await startServer(t, (_request, response) => response.end('secret'));
  const fetcher = startFetcher(t);
  const error = await rejection(fetcher.fetch(`http://localhost:${server.port}/image.png`));
  t.equal(error.code, 'media_url_not_allowed');
  t.notMatch(error.message, '127.0.0.1', 'the resolved address is not revealed to the client');
  t.equal(server.connections, 0);
});

t.test('a name is refused when any of its addresses is private, even if another is allowed', async (t) => {
  const server = await startServer(t, (_request, response) => response.end('secret'));
  const resolveHost: HostResolver = async () => [
    { address: '127.0.0.1', family: 4 },
    { address: '10.20.30.40', family: 4 },
  ];
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] }, { resolveHost });
  const error = await rejection(fetcher.fetch(`http://mixed.test:${server.port}/`));
  t.equal(error.code, 'media_url_not_allowed');
  t.equal(server.connections, 0);
});

t.test('the connection goes to the address the guard checked', async (t) => {
  const server = await startServer(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(png);
  });
  const looked: string[] = [];
  const resolveHost: HostResolver = async (hostname) => {
    looked.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.0/8'] }, { resolveHost });
  const attempts = watchConnectAttempts(t);
  const media = await fetcher.fetch(`http://media.test:${server.port}/cat`);
  t.equal(media.mimeType, 'image/png');
  t.same(looked, ['media.test']);
  t.same(attempts, ['media.test'], 'connection attempts are visible to the watcher used by the refusal tests');
  t.equal(server.requests[0]?.host, `media.test:${server.port}`);
});

t.test('allow_private_networks opens local ranges but not cloud metadata', async (t) => {
  const server = await startServer(t, (_request, response) => response.end('hello'));
  const fetcher = startFetcher(t, { allow_private_networks: true });
  t.equal((await fetcher.fetch(`http://localhost:${server.port}/note.txt`)).data.toString(), 'hello');
  t.equal((await rejection(fetcher.fetch('http://169.254.169.254/latest/meta-data/'))).code, 'media_url_not_allowed');
  t.equal((await rejection(fetcher.fetch('http://[fd00:ec2::254]/'))).code, 'media_url_not_allowed');
});

t.test('a fetch sends a plain user agent and no credentials', async (t) => {
  const server = await startServer(t, (_request, response) => response.end('ok'));
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] });
  await fetcher.fetch(`${server.origin}/a.txt`);
  const headers = server.requests[0] ?? {};
  t.match(headers['user-agent'], /^model-gateway-media-fetcher\//);
  t.notOk(headers.authorization);
  t.notOk(headers.cookie);
  t.equal((await rejection(fetcher.fetch(`http://user:pass@127.0.0.1:${server.port}/`))).code, 'invalid_media_url');
});

t.test('redirects', async (t) => {
  const resolveHost: HostResolver = async (hostname) => [{ address: hostname === 'internal.test' ? '10.1.2.3' : '127.0.0.1', family: 4 }];
  const server = await startServer(t, (request, response, state) => {
    const targets: Record<string, string> = {
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam/',
      '/to-internal': `http://internal.test:${state.port}/secret`,
      '/to-loopback-v6': `http://[::1]:${state.port}/secret`,
      '/hop': '/final.png',
      '/loop': '/loop',
    };
    const target = targets[request.url ?? ''];
    if (target !== undefined) {
      response.writeHead(302, { location: target });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(png);
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] }, { resolveHost });

  t.test('an allowed redirect is followed', async (t) => {
    const media = await fetcher.fetch(`${server.origin}/hop`);
    t.equal(media.mimeType, 'image/png');
  });

  t.test('a redirect from an allowed host to a denied one is refused', async (t) => {
    const before = server.requests.length;
    for (const path of ['/to-metadata', '/to-internal', '/to-loopback-v6']) {
      t.equal((await rejection(fetcher.fetch(`${server.origin}${path}`))).code, 'media_url_not_allowed', path);
    }
    t.equal(server.requests.length - before, 3, 'only the redirecting requests reached a server');
  });

  t.test('more than 3 redirects are refused', async (t) => {
    const before = server.requests.length;
    const error = await rejection(fetcher.fetch(`${server.origin}/loop`));
    t.equal(error.code, 'media_fetch_failed');
    t.match(error.message, /more than 3 times/);
    t.equal(server.requests.length - before, 4);
  });
});

t.test('size cap', async (t) => {
  const server = await startServer(t, (request, response) => {
    if (request.url === '/declared') {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5000' });
      response.end(Buffer.alloc(5000));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const timer = setInterval(() => response.write(Buffer.alloc(400)), 5);
    response.on('close', () => clearInterval(timer));
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'], max_bytes: 1000 });

  t.test('a declared Content-Length past the cap is refused up front', async (t) => {
    const error = await rejection(fetcher.fetch(`${server.origin}/declared`));
    t.equal(error.code, 'media_too_large');
  });

  t.test('an endless body is cut off as soon as it passes the cap', async (t) => {
    const started = Date.now();
    const error = await rejection(fetcher.fetch(`${server.origin}/endless`));
    t.equal(error.code, 'media_too_large');
    t.ok(Date.now() - started < 2_000);
  });

  t.test('a caller may lower the cap but not raise it', async (t) => {
    t.equal((await rejection(fetcher.fetch(`${server.origin}/declared`, { maxBytes: 10_000 }))).code, 'media_too_large');
  });
});

t.test('a URL that does not deliver in time is a 400 naming the limit', async (t) => {
  const server = await startServer(t, () => {
    // Never answers.
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'], timeout_ms: 200 });
  const error = await rejection(fetcher.fetch(`${server.origin}/slow.png`));
  t.equal(error.statusCode, 400);
  t.equal(error.code, 'media_fetch_timeout');
  t.match(error.message, /within 0.2 s/);
});

t.test('a caller abort is a 499', async (t) => {
  const server = await startServer(t, () => {
    // Never answers.
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const error = await rejection(fetcher.fetch(`${server.origin}/slow.png`, { signal: controller.signal }));
  t.equal(error.statusCode, 499);
  t.equal(error.retryable, false);
});

t.test('MIME types', async (t) => {
  const server = await startServer(t, (request, response) => {
    if (request.url === '/page') response.writeHead(200, { 'content-type': 'Text/HTML; charset=UTF-8' });
    else if (request.url === '/picture.webp') response.writeHead(200);
    else if (request.url === '/typed') response.writeHead(200, { 'content-type': 'Image/PNG; name=cat' });
    else response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(request.url === '/page' ? '<html></html>' : png);
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] });

  t.test('the Content-Type is used without its parameters, lower-cased', async (t) => {
    t.equal((await fetcher.fetch(`${server.origin}/typed`)).mimeType, 'image/png');
  });

  t.test('without a Content-Type, the extension decides', async (t) => {
    t.equal((await fetcher.fetch(`${server.origin}/picture.webp`)).mimeType, 'image/webp');
  });

  t.test('without either, the bytes are sniffed', async (t) => {
    t.equal((await fetcher.fetch(`${server.origin}/blob`)).mimeType, 'image/png');
  });

  t.test('a type outside the accepted list is refused, naming both', async (t) => {
    const error = await rejection(fetcher.fetch(`${server.origin}/page`, { allowedMimeTypes: ['image/png', 'image/webp'] }));
    t.equal(error.statusCode, 400);
    t.equal(error.code, 'unsupported_media_type');
    t.match(error.message, 'text/html');
    t.match(error.message, 'image/png, image/webp');
  });

  t.test('a family wildcard accepts every subtype', async (t) => {
    t.equal((await fetcher.fetch(`${server.origin}/typed`, { allowedMimeTypes: ['image/*'] })).mimeType, 'image/png');
  });
});

t.test('an error status is a 400 naming it', async (t) => {
  const server = await startServer(t, (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not here');
  });
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'] });
  const error = await rejection(fetcher.fetch(`${server.origin}/missing.png`));
  t.equal(error.statusCode, 400);
  t.equal(error.code, 'media_fetch_failed');
  t.match(error.message, 'HTTP 404');
});

t.test('streamUpstreamUrl: a URL an upstream gave', async (t) => {
  const timeouts = { connectMilliseconds: 5_000, firstByteMilliseconds: 5_000, idleMilliseconds: 5_000, totalMilliseconds: 5_000 };
  const stream = (fetcher: GuardedMediaFetcher, url: string, signal = new AbortController().signal, limits = timeouts) => fetcher.streamUpstreamUrl(url, { signal, timeouts: limits });
  const video = Buffer.alloc(3_000, 7);
  const resolveHost: HostResolver = async (hostname) => [{ address: hostname === 'internal.test' ? '10.1.2.3' : '127.0.0.1', family: 4 }];
  const server = await startServer(t, (request, response, state) => {
    const targets: Record<string, string> = {
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam/',
      '/to-internal': `http://internal.test:${state.port}/secret`,
      '/to-file': 'file:///etc/passwd',
      '/hop': '/video.mp4',
      '/loop': '/loop',
    };
    const target = targets[request.url ?? ''];
    if (target !== undefined) {
      response.writeHead(302, { location: target }).end();
    } else if (request.url === '/video.mp4') {
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) }).end(video);
    } else if (request.url === '/first-chunk-then-wait') {
      response.writeHead(200, { 'content-type': 'video/mp4' });
      response.write(video.subarray(0, 100));
    } else if (request.url === '/silent') {
      // Never answers.
    } else {
      response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
    }
  });
  // A cap far below the video: a stream is bounded by the channel's timeouts, not by the buffering cap.
  const fetcher = startFetcher(t, { allow_hosts: ['127.0.0.1'], max_bytes: 1_000 }, { resolveHost });

  t.test('the answer comes back unread, with its headers, after the guard followed the redirects', async (t) => {
    const response = await stream(fetcher, `${server.origin}/hop`);
    t.equal(response.statusCode, 200);
    t.equal(response.headers['content-type'], 'video/mp4');
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    t.same(Buffer.concat(chunks), video, 'larger than max_bytes: the stream is not held in memory, so the buffering cap does not apply');
  });

  t.test('the answer is handed over before the body has arrived', async (t) => {
    const response = await stream(fetcher, `${server.origin}/first-chunk-then-wait`);
    const iterator = response.body[Symbol.asyncIterator]();
    t.equal((await iterator.next()).value?.byteLength, 100);
    await iterator.return?.();
  });

  t.test('an error status is the caller’s to judge', async (t) => {
    const response = await stream(fetcher, `${server.origin}/expired`);
    t.equal(response.statusCode, 403);
    t.match(await response.body.text(), 'AccessDenied');
  });

  t.test('addresses that are not public are a 502 upstream_url_refused naming why, before any connection', async (t) => {
    const attempts = watchConnectAttempts(t);
    const guarded = startFetcher(t);
    const cases: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${server.port}/`, /pointed the gateway at 127\.0\.0\.1, a loopback address/],
      [`http://[::ffff:127.0.0.1]:${server.port}/`, /127\.0\.0\.1, a loopback address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254, a link-local address, where cloud metadata services answer/],
      ['http://10.0.0.1/', /10\.0\.0\.1, a private address/],
      ['http://[fd00::1]/', /fd00::1, a private address/],
      ['http://100.64.0.1/', /100\.64\.0\.1, a carrier-grade NAT address/],
    ];
    for (const [url, why] of cases) {
      const error = await rejection(stream(guarded, url));
      t.match(error, { statusCode: 502, code: 'upstream_url_refused', retryable: false, message: why }, url);
      t.match(error.message, /security\.media\.allow_hosts/);
    }
    t.same(attempts, [], 'undici never started a connection');
    const before = server.connections;
    const named = await rejection(stream(guarded, `http://localhost:${server.port}/video.mp4`));
    t.match(named, { statusCode: 502, code: 'upstream_url_refused', message: /localhost, a name that resolves to a private, loopback, link-local or otherwise non-public address/ });
    t.notMatch(named.message, '127.0.0.1', 'the resolved address is not revealed');
    t.equal(server.connections, before);
  });

  t.test('allow_private_networks still keeps cloud metadata out', async (t) => {
    const open = startFetcher(t, { allow_private_networks: true });
    t.equal((await stream(open, `http://localhost:${server.port}/video.mp4`)).statusCode, 200);
    t.match(await rejection(stream(open, 'http://169.254.169.254/latest/meta-data/')), { code: 'upstream_url_refused' });
  });

  t.test('every redirect hop is checked again', async (t) => {
    const before = server.requests.length;
    t.match(await rejection(stream(fetcher, `${server.origin}/to-metadata`)), { statusCode: 502, code: 'upstream_url_refused', message: /^the upstream redirected the gateway to 169\.254\.169\.254/ });
    t.match(await rejection(stream(fetcher, `${server.origin}/to-internal`)), { statusCode: 502, code: 'upstream_url_refused', message: /^the upstream redirected the gateway to internal\.test, a name/ });
    t.match(await rejection(stream(fetcher, `${server.origin}/to-file`)), { statusCode: 502, code: 'upstream_url_refused', message: /uses file:/ });
    t.equal(server.requests.length - before, 3, 'only the redirecting requests reached a server');
    t.match(await rejection(stream(fetcher, `${server.origin}/loop`)), { statusCode: 502, code: 'upstream_invalid_response', message: /redirected more than 3 times/ });
  });

  t.test("a URL on the channel's own host and port is fetched whatever its address; a redirect off it is checked again", async (t) => {
    const strict = startFetcher(t, {}, { resolveHost });
    const own = { signal: new AbortController().signal, timeouts, channelBaseUrl: `${server.origin}/api/v1` };
    const response = await strict.streamUpstreamUrl(`${server.origin}/hop`, own);
    t.equal(response.statusCode, 200, "loopback, but the channel's host: fetched, redirect on the same host included");
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    t.same(Buffer.concat(chunks), video);
    t.match(await rejection(strict.streamUpstreamUrl(`${server.origin}/to-internal`, own)), { statusCode: 502, code: 'upstream_url_refused', message: /^the upstream redirected the gateway to internal\.test/ });
    const other = { ...own, channelBaseUrl: 'http://upstream.example/api' };
    t.match(await rejection(strict.streamUpstreamUrl(`${server.origin}/video.mp4`, other)), { statusCode: 502, code: 'upstream_url_refused' }, 'another channel host does not open loopback');
    const otherPort = { ...own, channelBaseUrl: `http://127.0.0.1:${server.port === 1 ? 2 : 1}/api` };
    t.match(await rejection(strict.streamUpstreamUrl(`${server.origin}/video.mp4`, otherPort)), { statusCode: 502, code: 'upstream_url_refused' }, 'another port of the same address is another service');
    t.match(await rejection(strict.fetch(`${server.origin}/video.mp4`)), { statusCode: 400, code: 'media_url_not_allowed' }, 'a fetch without a channel host is guarded as before');
  });

  t.test('URLs that are not plain http(s) are refused without a fetch', async (t) => {
    for (const url of ['file:///etc/passwd', 'gopher://example.com/', 'not a url', `http://user:pass@127.0.0.1:${server.port}/video.mp4`]) {
      t.match(await rejection(stream(fetcher, url)), { statusCode: 502, code: 'upstream_url_refused' }, url);
    }
  });

  t.test('it sends a plain user agent and no credentials', async (t) => {
    await (await stream(fetcher, `${server.origin}/video.mp4`)).body.dump();
    const headers = server.requests.at(-1) ?? {};
    t.match(headers['user-agent'], /^model-gateway-media-fetcher\//);
    t.notOk(headers.authorization);
    t.notOk(headers['x-gx-api-key']);
  });

  t.test("the channel's timeouts bound it, and a caller abort is a 499", async (t) => {
    const late = await rejection(stream(fetcher, `${server.origin}/silent`, new AbortController().signal, { ...timeouts, firstByteMilliseconds: 100 }));
    t.match(late, { statusCode: 504, code: 'upstream_timeout', message: /no response within 100 ms/ });
    const response = await stream(fetcher, `${server.origin}/first-chunk-then-wait`, new AbortController().signal, { ...timeouts, idleMilliseconds: 100 });
    const idle = await rejection(response.body.text());
    t.match(idle, { statusCode: 504, code: 'upstream_timeout', message: /went silent for 100 ms/ });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    t.match(await rejection(stream(fetcher, `${server.origin}/silent`, controller.signal)), { statusCode: 499, retryable: false });
  });
});

t.test('checkVendorFetchedUrls: URLs the upstream will fetch', async (t) => {
  const resolved: string[] = [];
  const resolveHost: HostResolver = async (hostname) => {
    resolved.push(hostname);
    if (hostname === 'internal.test') return [{ address: '10.1.2.3', family: 4 }];
    if (hostname === 'mixed.test') return [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
    // Answers a refused address, but only after every time limit here has passed.
    if (hostname === 'slow.test') return new Promise((resolve) => setTimeout(resolve, 1_000, [{ address: '10.0.0.1', family: 4 }]));
    if (hostname === 'public.test') return [{ address: '93.184.216.34', family: 4 }];
    throw Object.assign(new Error(`no address found for ${hostname}`), { code: 'ENOTFOUND' });
  };
  const check = (fetcher: GuardedMediaFetcher, url: string, signal?: AbortSignal) => fetcher.checkVendorFetchedUrls([{ url, field: 'metadata.input.media[0].url' }], signal);

  t.test('an address literal or a name resolving to a refused address is a 400 naming the field', async (t) => {
    const fetcher = startFetcher(t, { timeout_ms: 50 }, { resolveHost });
    const sloppy = ['http:/127.0.0.1', 'http:10.0.0.1/a.png', 'https:\\\\169.254.169.254\\latest'];
    for (const url of ['http://127.0.0.1/a.png', 'https://10.0.0.1/a.png', 'http://169.254.169.254/latest/', 'http://[::ffff:127.0.0.1]/', 'https://internal.test/a.png', 'https://mixed.test/a.png', ...sloppy]) {
      const error = await rejection(check(fetcher, url));
      t.match(error, { statusCode: 400, code: 'media_url_not_allowed', param: 'metadata.input.media[0].url', message: /^metadata\.input\.media\[0\]\.url: .*private, loopback/ }, url);
    }
  });

  t.test('public names, names this resolver cannot resolve, slow resolutions and other schemes pass', async (t) => {
    const fetcher = startFetcher(t, { timeout_ms: 50 }, { resolveHost });
    for (const url of ['https://public.test/a.png', 'https://unknown.test/a.png', 'https://slow.test/a.png', 'gs://bucket/a.png', 'asset://asset-1', 'data:image/png;base64,AAAA']) {
      await t.resolves(check(fetcher, url), url);
    }
  });

  t.test('allow_hosts and allow_private_networks open them as they do for fetches, cloud metadata stays closed', async (t) => {
    const listed = startFetcher(t, { allow_hosts: ['internal.test', '10.0.0.0/8'] }, { resolveHost });
    await t.resolves(check(listed, 'https://internal.test/a.png'));
    await t.resolves(check(listed, 'http://10.9.9.9/a.png'));
    const open = startFetcher(t, { allow_private_networks: true }, { resolveHost });
    await t.resolves(check(open, 'https://internal.test/a.png'));
    t.match(await rejection(check(open, 'http://169.254.169.254/latest/')), { code: 'media_url_not_allowed' });
  });

  t.test('check_vendor_fetched_urls: false forwards every URL unchecked, without resolving it', async (t) => {
    resolved.length = 0;
    const fetcher = startFetcher(t, { check_vendor_fetched_urls: false }, { resolveHost });
    await t.resolves(check(fetcher, 'http://169.254.169.254/latest/'));
    await t.resolves(check(fetcher, 'https://internal.test/a.png'));
    t.strictSame(resolved, []);
  });

  t.test('a caller abort is a 499', async (t) => {
    const fetcher = startFetcher(t, {}, { resolveHost });
    const controller = new AbortController();
    const pending = check(fetcher, 'https://slow.test/a.png', controller.signal);
    controller.abort();
    t.match(await rejection(pending), { statusCode: 499 });
  });
});
