import t from 'tap';
import type { OperationCall, ProviderHost, UpstreamRequest, UpstreamResponse } from '../../../../core/index.js';
import type { GoogleApiOptions as VoOptions } from '../../../../providers/shared/google-api/google-api.js';
import { downloadVoVideo } from '../../../../providers/vo/download-vo-video.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

const key = 'channel-key';
const timeouts = { connectMilliseconds: 1000, firstByteMilliseconds: 1000, idleMilliseconds: 1000, totalMilliseconds: 1000 };
const call = {
  channel: { name: 'veo', baseUrl: 'https://api.example.com', apiKey: key, timeouts },
  options: { api_version: 'v1beta' },
  signal: new AbortController().signal,
} as unknown as OperationCall<unknown, VoOptions>;

const answer = (statusCode: number, headers: Record<string, string> = {}, text = ''): UpstreamResponse => upstreamAnswer(statusCode, text, headers);

/** One request the stub host saw: through `host.http` (`http`) or the media guard (`guarded`). */
interface Asked {
  via: 'http' | 'guarded';
  url: string;
  headers?: Record<string, string>;
}

/**
 * A host that answers `answers` in order, whether asked through `host.http` or through the
 * media guard's `streamUpstreamUrl`, and records which way each request went.
 */
function hostAnswering(...answers: UpstreamResponse[]): { host: ProviderHost; asked: Asked[] } {
  const asked: Asked[] = [];
  const next = () => {
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no more answers');
    return answer;
  };
  const host = {
    http: {
      request: async (request: UpstreamRequest) => {
        asked.push({ via: 'http', url: request.url, headers: request.headers });
        return next();
      },
    },
    media: {
      streamUpstreamUrl: async (url: string) => {
        asked.push({ via: 'guarded', url });
        return next();
      },
    },
  } as unknown as ProviderHost;
  return { host, asked };
}

t.test("the key goes to the channel's origin only; the redirect to storage goes through the media guard without it", async (t) => {
  const { host, asked } = hostAnswering(answer(302, { location: 'https://storage.example.net/v.mp4?sig=1' }), answer(200, { 'content-type': 'video/mp4' }, 'mp4'));
  const response = await downloadVoVideo(host, call, 'https://api.example.com/v1beta/files/abc:download?alt=media');
  t.equal(response.statusCode, 200);
  t.strictSame(asked, [
    { via: 'http', url: 'https://api.example.com/v1beta/files/abc:download?alt=media', headers: { 'x-gx-api-key': key } },
    { via: 'guarded', url: 'https://storage.example.net/v.mp4?sig=1' },
  ]);
});

t.test('an address on another origin goes through the media guard without the key; a relative Location resolves against the address', async (t) => {
  const elsewhere = hostAnswering(answer(200));
  await downloadVoVideo(elsewhere.host, call, 'https://files.example.org/v1beta/files/abc:download?alt=media');
  t.strictSame(elsewhere.asked, [{ via: 'guarded', url: 'https://files.example.org/v1beta/files/abc:download?alt=media' }], 'the guard follows its redirects itself');
  const relative = hostAnswering(answer(307, { location: '/signed/v.mp4' }), answer(200));
  await downloadVoVideo(relative.host, call, 'https://api.example.com/v1beta/files/abc:download?alt=media');
  t.strictSame(relative.asked[1], { via: 'guarded', url: 'https://api.example.com/signed/v.mp4' }, 'a redirect is the upstream’s word even on its own origin');
});

t.test('an address that is not a URL of the channel goes to the guard, which judges it; a redirect without a Location is a 502', async (t) => {
  const odd = hostAnswering(answer(200));
  await downloadVoVideo(odd.host, call, 'file:///etc/passwd');
  t.strictSame(odd.asked, [{ via: 'guarded', url: 'file:///etc/passwd' }], 'never host.http');
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
