import t from 'tap';
import { classifyQiImage } from '../../../../providers/qi/qi-image-reference.js';
import { sniffImageType } from '../../../../core/kit/index.js';
import { qiImageMimeTypes } from '../../../../providers/qi/qi-image-reference.js';

const path = ['input', 'messages', 0, 'content', 1, 'image'];
const classify = (value: string) => classifyQiImage({ value, path });
const refusal = (value: string) => t.throws(() => classify(value), { statusCode: 400, code: 'invalid_request' });

const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4n8XA0HEGhIEsACbKBXsQxtCmAAAAAElFTkSuQmCC';
const jpegBase64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
const webpBase64 = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]).toString('base64');
const gifBase64 = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00', 'latin1').toString('base64');

t.test('an http(s) URL is kept as given for the upstream to fetch', async (t) => {
  t.strictSame(classify(' https://example.com/cat.png?x=1 '), { kind: 'url', url: 'https://example.com/cat.png?x=1' });
  t.strictSame(classify('HTTP://example.com/a.jpg'), { kind: 'url', url: 'HTTP://example.com/a.jpg' });
});

t.test('a data: URI is kept for the media guard to decode and check', async (t) => {
  t.strictSame(classify(`data:image/png;base64,${pngBase64}`), { kind: 'data', uri: `data:image/png;base64,${pngBase64}` });
});

t.test('raw base64 becomes a data: URI typed from its magic bytes', async (t) => {
  t.strictSame(classify(pngBase64), { kind: 'data', uri: `data:image/png;base64,${pngBase64}` });
  t.strictSame(classify(jpegBase64), { kind: 'data', uri: `data:image/jpeg;base64,${jpegBase64}` });
  t.strictSame(classify(webpBase64), { kind: 'data', uri: `data:image/webp;base64,${webpBase64}` });
  t.strictSame(classify(`${pngBase64.slice(0, 20)}\n${pngBase64.slice(20)}`), { kind: 'data', uri: `data:image/png;base64,${pngBase64}` }, 'line breaks are dropped');
});

t.test('anything else is a 400 that names the field and says what to send', async (t) => {
  const messages = ['', 'ftp://example.com/a.png', 'oss://bucket/a.png', 'not an image!', gifBase64, 'https://exa mple.com/a.png'].map((value) => {
    try {
      classify(value);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  });
  t.match(messages, [
    /^input\.messages\[0\]\.content\[1\]\.image: must not be empty/,
    /^input\.messages\[0\]\.content\[1\]\.image: ftp: URLs are not supported/,
    /: oss: URLs are not supported/,
    /: expected an http\(s\) URL, a data: URI or base64 image data/,
    /: is neither an http\(s\) URL nor a data: URI, and as base64 it is not a PNG, JPEG or WebP image/,
    /: is not a valid URL/,
  ]);
  refusal('javascript:alert(1)');
});

t.test('among the Q-style types the sniffer knows PNG, JPEG and WebP only', async (t) => {
  t.equal(sniffImageType(Buffer.from(pngBase64, 'base64'), qiImageMimeTypes), 'image/png');
  t.equal(sniffImageType(Buffer.from(gifBase64, 'base64'), qiImageMimeTypes), undefined);
  t.equal(sniffImageType(Buffer.from(gifBase64, 'base64')), 'image/gif', 'without a list the gif is told');
  t.equal(sniffImageType(new Uint8Array(), qiImageMimeTypes), undefined);
});
