import t from 'tap';
import { GatewayError, type FetchedMedia, type MediaFetchOptions, type ProviderHost } from '../../../../core/index.js';
import { resolveSrReference } from '../../../../providers/sr/sr-reference-image.js';

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16, 2)]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);

/** A host whose media fetcher answers `answer` (or throws it) and records what it was asked. */
function hostFetching(answer: FetchedMedia | Error, asked: Array<{ url: string; options?: MediaFetchOptions }> = []): ProviderHost {
  return {
    media: {
      fetch: async (url: string, options?: MediaFetchOptions) => {
        asked.push({ url, options });
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
  } as unknown as ProviderHost;
}

const signal = new AbortController().signal;

t.test('a URL is fetched through the media guard, png, jpeg or webp only, and sent as the type its bytes show', async (t) => {
  const asked: Array<{ url: string; options?: MediaFetchOptions }> = [];
  const file = await resolveSrReference(hostFetching({ mimeType: 'image/png', data: webp }, asked), { kind: 'url', url: 'https://example.com/first.png' }, signal);
  t.strictSame(file, { filename: 'input_reference.webp', mimeType: 'image/webp', data: webp });
  t.equal(asked[0]!.url, 'https://example.com/first.png');
  t.strictSame(asked[0]!.options?.allowedMimeTypes, ['image/png', 'image/jpeg', 'image/webp', 'image/jpg']);
  t.equal(asked[0]!.options?.signal, signal);
});

t.test('inline data goes through the same guard (its size cap), as a data: URI', async (t) => {
  const asked: Array<{ url: string }> = [];
  const dataUri = `data:image/png;base64,${png.toString('base64')}`;
  t.match(await resolveSrReference(hostFetching({ mimeType: 'image/png', data: png }, asked), { kind: 'inline', dataUri }, signal), { mimeType: 'image/png', filename: 'input_reference.png' });
  t.equal(asked[0]!.url, dataUri);
});

t.test("a refused fetch is the guard's 400 with input_reference in front, its code kept", async (t) => {
  const refused = new GatewayError(400, 'media_url_not_allowed', 'the media URL points to a private address');
  await t.rejects(resolveSrReference(hostFetching(refused), { kind: 'url', url: 'http://10.0.0.1/a.png' }, signal), {
    statusCode: 400,
    code: 'media_url_not_allowed',
    param: 'input_reference',
    message: /^input_reference: the media URL points to a private address/,
  });
});

t.test('bytes that are no accepted image are refused, whatever the headers said', async (t) => {
  await t.rejects(resolveSrReference(hostFetching({ mimeType: 'image/png', data: Buffer.from('<html>') }), { kind: 'url', url: 'https://example.com/a.png' }, signal), {
    statusCode: 400,
    param: 'input_reference',
    message: /not a png, jpeg or webp image/,
  });
});

t.test('an upload is sent as it came, under its own name or a made-up one', async (t) => {
  const host = hostFetching(new Error('never fetched'));
  const upload = { field: 'input_reference', filename: 'first.png', mimeType: 'application/octet-stream', data: png };
  t.strictSame(await resolveSrReference(host, { kind: 'upload', upload, mimeType: 'image/png' }, signal), { filename: 'first.png', mimeType: 'image/png', data: png });
  t.match(await resolveSrReference(host, { kind: 'upload', upload: { ...upload, filename: '' }, mimeType: 'image/png' }, signal), { filename: 'input_reference.png' });
});
