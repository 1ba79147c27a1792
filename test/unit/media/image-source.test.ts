import t from 'tap';
import { type FetchedMedia, GatewayError, type GatewayErrorCode, type MediaFetcher, type MediaFetchOptions } from '../../../core/index.js';
import { checkImageBytes, fetchImage, readImageSourceText, sniffBase64ImageType, type ImageFormats } from '../../../core/media/image-source.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const formats: ImageFormats = { types: ['image/png', 'image/jpeg'], names: 'png or jpeg', usedAs: 'frames' };

const fetcherOf = (answer: (url: string, options?: MediaFetchOptions) => FetchedMedia): MediaFetcher =>
  ({ fetch: async (url: string, options?: MediaFetchOptions) => answer(url, options) }) as unknown as MediaFetcher;

t.test('an image given as text is a URL, a data: URI or raw base64 wrapped into one', async (t) => {
  t.strictSame(readImageSourceText('  https://images.example.com/cat.png ', 'image'), { kind: 'http', url: 'https://images.example.com/cat.png' });
  t.strictSame(readImageSourceText('data:image/png;base64,AAAA', 'image'), { kind: 'data', url: 'data:image/png;base64,AAAA' });
  t.strictSame(readImageSourceText(`${png.toString('base64').slice(0, 8)}\n${png.toString('base64').slice(8)}`, 'image'), {
    kind: 'base64',
    url: `data:application/octet-stream;base64,${png.toString('base64')}`,
  });
});

t.test('another scheme or text that is not base64 is refused, naming the field', async (t) => {
  t.throws(() => readImageSourceText('ftp://example.com/cat.png', 'lastFrame'), { statusCode: 400, code: 'invalid_request', param: 'lastFrame', message: /^lastFrame: ftp: addresses are not fetched/ });
  t.throws(() => readImageSourceText('not base64!', 'image[1]'), { statusCode: 400, param: 'image[1]', message: 'image[1]: expected an https URL, a data: URI or base64 image data' });
});

t.test('image bytes are judged by their magic numbers against the formats the upstream takes', async (t) => {
  t.equal(checkImageBytes(png, 'image', formats), 'image/png');
  t.throws(() => checkImageBytes(gif, 'image', formats), { param: 'image', message: 'image: gif images are not accepted as frames; send png or jpeg' });
  t.throws(() => checkImageBytes(gif, 'image', { ...formats, told: formats.types }), { message: 'image: the data is not a png or jpeg image' });
  t.throws(() => checkImageBytes(Buffer.from('plain text'), 'image', formats), { message: 'image: the data is not a png or jpeg image' });
});

t.test('the start of base64 text tells its image type before the rest is decoded', async (t) => {
  t.equal(sniffBase64ImageType(png.toString('base64')), 'image/png');
  t.equal(sniffBase64ImageType(png.toString('base64'), ['image/jpeg']), undefined);
});

t.test('a fetched image comes back typed by its bytes; a refusal names the field', async (t) => {
  const signal = new AbortController().signal;
  const fetched = await fetchImage(fetcherOf(() => ({ mimeType: 'image/jpeg', data: png })), 'https://a.example/x', 'image', formats, { signal });
  t.strictSame(fetched, { mimeType: 'image/png', data: png });
  const refusing = (code: GatewayErrorCode) => fetcherOf(() => {
    throw new GatewayError(400, code, 'the media is refused');
  });
  await t.rejects(fetchImage(refusing('unsupported_media_type'), 'https://a.example/x', 'image', formats, { signal }), {
    code: 'invalid_request',
    param: 'image',
    message: 'image: the image is not png or jpeg; convert it to one of them',
  });
  await t.rejects(fetchImage(refusing('media_too_large'), 'https://a.example/x', 'lastFrame', formats, { signal }), { code: 'media_too_large', param: 'lastFrame', message: 'lastFrame: the media is refused' });
});
