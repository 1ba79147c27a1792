import t from 'tap';
import type { OperationCall, ProviderHost, UpstreamRequest, UpstreamResponse } from '../../../../core/index.js';
import { downloadVoVideo } from '../../../../providers/vo/download-vo-video.js';
import type { VoOptions } from '../../../../providers/vo/vo-options.js';

const key = 'channel-key';
const timeouts = { connectMilliseconds: 1000, firstByteMilliseconds: 1000, idleMilliseconds: 1000, totalMilliseconds: 1000 };
const call = {
  channel: { name: 'veo', baseUrl: 'https://api.example.com', apiKey: key, timeouts },
  options: { api_version: 'v1beta' },
  signal: new AbortController().signal,
} as unknown as OperationCall<unknown, VoOptions>;

function answer(statusCode: number, headers: Record<string, string> = {}, text = ''): UpstreamResponse {
  const bytes = Buffer.from(text);
  return {
    statusCode,
    headers,
    body: {
      async *[Symbol.asyncIterator]() {
        yield bytes;
      },
      text: async () => text,
      json: async () => JSON.parse(text),
      dump: async () => {},
    },
  };
}

/** A host whose upstream answers `answers` in order and records what it was asked. */
function hostAnswering(...answers: UpstreamResponse[]): { host: ProviderHost; asked: UpstreamRequest[] } {
  const asked: UpstreamRequest[] = [];
  const host = {
    http: {
      request: async (request: UpstreamRequest) => {
        asked.push(request);
        const next = answers.shift();
        if (next === undefined) throw new Error('no more answers');
        return next;
      },
    },
  } as unknown as ProviderHost;
  return { host, asked };
}

t.test("the key goes to the channel's origin only; the redirect to storage is followed without it", async (t) => {
  const { host, asked } = hostAnswering(answer(302, { location: 'https://storage.example.net/v.mp4?sig=1' }), answer(200, { 'content-type': 'video/mp4' }, 'mp4'));
  const response = await downloadVoVideo(host, call, 'https://api.example.com/v1beta/files/abc:download?alt=media');
  t.equal(response.statusCode, 200);
  t.strictSame(
    asked.map((request) => [request.method, request.url, request.headers]),
    [
      ['GET', 'https://api.example.com/v1beta/files/abc:download?alt=media', { 'x-gx-api-key': key }],
      ['GET', 'https://storage.example.net/v.mp4?sig=1', {}],
    ],
  );
});

t.test('an address on another origin is fetched without the key; a relative Location resolves against the address', async (t) => {
  const { host, asked } = hostAnswering(answer(307, { location: '/signed/v.mp4' }), answer(200));
  await downloadVoVideo(host, call, 'https://files.example.org/v1beta/files/abc:download?alt=media');
  t.strictSame(asked[0]!.headers, {});
  t.equal(asked[1]!.url, 'https://files.example.org/signed/v.mp4');
  t.strictSame(asked[1]!.headers, {});
});

t.test('addresses that are not http(s), a second redirect and a missing Location are 502s', async (t) => {
  await t.rejects(downloadVoVideo(hostAnswering().host, call, 'file:///etc/passwd'), { statusCode: 502, message: /file:/ });
  await t.rejects(downloadVoVideo(hostAnswering(answer(302, { location: 'ftp://storage/v.mp4' })).host, call, 'https://api.example.com/f'), { statusCode: 502, message: /ftp:/ });
  await t.rejects(
    downloadVoVideo(hostAnswering(answer(302, { location: 'https://storage/a' }), answer(302, { location: 'https://storage/b' })).host, call, 'https://api.example.com/f'),
    { statusCode: 502, message: /more than once/ },
  );
  await t.rejects(downloadVoVideo(hostAnswering(answer(302)).host, call, 'https://api.example.com/f'), { statusCode: 502, message: /without a Location/ });
});

t.test('a video the upstream no longer has is a 404; other failures keep their status meaning', async (t) => {
  await t.rejects(downloadVoVideo(hostAnswering(answer(404)).host, call, 'https://api.example.com/f'), { statusCode: 404, code: 'video_not_found', message: /no longer has this video/ });
  await t.rejects(downloadVoVideo(hostAnswering(answer(302, { location: 'https://storage/v' }), answer(410)).host, call, 'https://api.example.com/f'), { statusCode: 404, message: /no longer/ });
  await t.rejects(downloadVoVideo(hostAnswering(answer(503, {}, '{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}')).host, call, 'https://api.example.com/f'), {
    statusCode: 502,
    message: /busy \(UNAVAILABLE\)/,
  });
});
