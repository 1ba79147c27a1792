import t, { type Test } from 'tap';
import type { FetchedMedia, MediaFetcher, MediaFetchOptions } from '../../../../core/index.js';
import { sniffImageType } from '../../../../core/kit/index.js';
import { GuardedMediaFetcher } from '../../../../core/http/media-fetcher.js';
import { tinyPngBase64 } from '../../../fakes/gx/fake-gx-upstream.js';
import { fetchGxReferenceImage } from '../../../../providers/gx/images/gx-image-operation.js';

const png = Buffer.from(tinyPngBase64, 'base64');
const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
/** An ISO-BMFF `ftyp` box: size, `ftyp`, major brand, minor version, compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + compatible.length * 4;
  return Buffer.concat([Buffer.from([0, 0, 0, size]), Buffer.from('ftyp'), Buffer.from(major), Buffer.alloc(4), ...compatible.map((brand) => Buffer.from(brand)), Buffer.alloc(8)]);
};
const heic = ftyp('heic', 'mif1', 'heic');
const heif = ftyp('mif1', 'mif1');
const avif = ftyp('avif', 'mif1', 'miaf');
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');
const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(52)]);
const tiff = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(8)]);

const signal = new AbortController().signal;

function realFetcher(t: Test, maxBytes = 1_000_000): GuardedMediaFetcher {
  const fetcher = new GuardedMediaFetcher({ max_bytes: maxBytes, timeout_ms: 2_000, allow_private_networks: false, allow_hosts: [], check_vendor_fetched_urls: true });
  t.teardown(() => fetcher.close());
  return fetcher;
}

/** A media fetcher that answers every URL with `answer` and records what it was asked. */
function stubFetcher(answer: FetchedMedia): MediaFetcher & { calls: Array<{ url: string; options: MediaFetchOptions | undefined }> } {
  const calls: Array<{ url: string; options: MediaFetchOptions | undefined }> = [];
  return {
    calls,
    async fetch(url, options) {
      calls.push({ url, options });
      return answer;
    },
    async streamUpstreamUrl(url) {
      throw new Error(`reference images are never streamed, not even ${url}`);
    },
    async checkVendorFetchedUrls(urls) {
      throw new Error(`reference images are fetched by the gateway, never handed on (${urls.length} URLs)`);
    },
  };
}

t.test('magic numbers tell the accepted formats and the refused ones apart', async (t) => {
  t.equal(sniffImageType(png), 'image/png');
  t.equal(sniffImageType(jpeg), 'image/jpeg');
  t.equal(sniffImageType(webp), 'image/webp');
  t.equal(sniffImageType(heic), 'image/heic');
  t.equal(sniffImageType(heif), 'image/heif');
  t.equal(sniffImageType(avif), 'image/avif', 'an AVIF is not taken for HEIF although it lists mif1');
  t.equal(sniffImageType(gif), 'image/gif');
  t.equal(sniffImageType(bmp), 'image/bmp');
  t.equal(sniffImageType(tiff), 'image/tiff');
  t.equal(sniffImageType(Buffer.from('hello world')), undefined);
  t.equal(sniffImageType(ftyp('isom', 'mp42')), undefined, 'an MP4 is not an image');
});

t.test('raw base64 is decoded and typed by its bytes', async (t) => {
  const fetcher = realFetcher(t);
  for (const [bytes, mimeType] of [
    [png, 'image/png'],
    [jpeg, 'image/jpeg'],
    [webp, 'image/webp'],
    [heic, 'image/heic'],
    [heif, 'image/heif'],
  ] as const) {
    t.strictSame(await fetchGxReferenceImage(bytes.toString('base64'), 'image', fetcher, signal), { mimeType, data: bytes.toString('base64') }, mimeType);
  }
  const wrapped = `${png.toString('base64').slice(0, 20)}\n${png.toString('base64').slice(20)}`;
  t.equal((await fetchGxReferenceImage(wrapped, 'image', fetcher, signal)).data, tinyPngBase64, 'line breaks inside base64 are ignored');
});

t.test('a data URI is decoded, and the bytes decide the type over what the URI claims', async (t) => {
  const fetcher = realFetcher(t);
  t.strictSame(await fetchGxReferenceImage(`data:image/png;base64,${tinyPngBase64}`, 'image', fetcher, signal), { mimeType: 'image/png', data: tinyPngBase64 });
  t.strictSame(await fetchGxReferenceImage(`data:image/jpeg;base64,${tinyPngBase64}`, 'image', fetcher, signal), { mimeType: 'image/png', data: tinyPngBase64 });
  await t.rejects(fetchGxReferenceImage(`data:image/png;base64,${bmp.toString('base64')}`, 'image[2]', fetcher, signal), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'image[2]',
    message: 'image[2]: bmp images are not accepted as references; send png, jpeg, webp, heic or heif',
  });
});

t.test('gif, bmp, tiff and avif references are refused naming the field and the format', async (t) => {
  const fetcher = realFetcher(t);
  for (const [bytes, name] of [
    [gif, 'gif'],
    [bmp, 'bmp'],
    [tiff, 'tiff'],
    [avif, 'avif'],
  ] as const) {
    await t.rejects(fetchGxReferenceImage(bytes.toString('base64'), 'image', fetcher, signal), { name: 'GatewayError', statusCode: 400, param: 'image', message: new RegExp(`^image: ${name} images are not accepted`) }, name);
  }
  await t.rejects(fetchGxReferenceImage(`data:image/gif;base64,${gif.toString('base64')}`, 'contents[0].parts[1].image', fetcher, signal), {
    statusCode: 400,
    param: 'contents[0].parts[1].image',
    message: /^contents\[0\]\.parts\[1\]\.image: /,
  });
});

t.test('data that is no image, or no base64, or another scheme, is a 400 naming the field', async (t) => {
  const fetcher = realFetcher(t);
  await t.rejects(fetchGxReferenceImage(Buffer.from('just some text').toString('base64'), 'image', fetcher, signal), { name: 'GatewayError', statusCode: 400, message: 'image: the data is not a png, jpeg, webp, heic or heif image' });
  await t.rejects(fetchGxReferenceImage('not base64 at all!', 'image[0]', fetcher, signal), { name: 'GatewayError', statusCode: 400, param: 'image[0]', message: /^image\[0\]: expected an https URL, a data: URI or base64 image data$/ });
  await t.rejects(fetchGxReferenceImage('file:///etc/passwd', 'image', fetcher, signal), { name: 'GatewayError', statusCode: 400, message: /^image: file: addresses are not fetched/ });
  await t.rejects(fetchGxReferenceImage('data:image/png;base64,@@@', 'image', fetcher, signal), { name: 'GatewayError', statusCode: 400, code: 'invalid_media_url', message: /^image: the data: URI does not hold valid base64/ });
});

t.test("inline data over the operator's media cap is refused like a download would be", async (t) => {
  const fetcher = realFetcher(t, 16);
  await t.rejects(fetchGxReferenceImage(tinyPngBase64, 'image', fetcher, signal), { name: 'GatewayError', statusCode: 400, code: 'media_too_large', param: 'image', message: /^image: the media is larger than the limit of 16 bytes/ });
});

t.test('an http(s) URL goes through the media fetcher with the accepted types and the signal', async (t) => {
  const fetcher = stubFetcher({ mimeType: 'application/octet-stream', data: jpeg });
  const image = await fetchGxReferenceImage('  https://images.example.com/cat  ', 'image', fetcher, signal);
  t.strictSame(image, { mimeType: 'image/jpeg', data: jpeg.toString('base64') });
  t.equal(fetcher.calls[0]!.url, 'https://images.example.com/cat');
  t.equal(fetcher.calls[0]!.options?.signal, signal);
  t.ok(fetcher.calls[0]!.options?.allowedMimeTypes?.includes('image/heic'));
  t.notOk(fetcher.calls[0]!.options?.allowedMimeTypes?.includes('image/gif'), 'a URL that says gif is refused before its body is read');
});

t.test("the media guard's refusal of a private URL names the field", async (t) => {
  const fetcher = realFetcher(t);
  await t.rejects(fetchGxReferenceImage('http://127.0.0.1:9/cat.png', 'image[1]', fetcher, signal), {
    name: 'GatewayError',
    statusCode: 400,
    code: 'media_url_not_allowed',
    param: 'image[1]',
    message: /^image\[1\]: the media URL points to a private/,
  });
});
