import t from 'tap';
import type { FetchedMedia } from '../../../../core/index.js';
import { collectMediaReferences } from '../../../../providers/gx/chat/gx-chat-media.js';
import { gxAllowedMimeTypes } from '../../../../providers/gx/chat/gx-chat-media.js';
import { chatRequest, translate } from './fixtures/gx-request-input.js';

const png = 'iVBORw0KGgo=';
const userParts = (body: Record<string, unknown>) => (body.contents as { parts: unknown[] }[])[0]?.parts;
const withContent = (content: unknown) => ({ messages: [{ role: 'user', content }] });
const fetched = (entries: [string, FetchedMedia][]) => new Map(entries);

t.test('image_url data URIs become inline data, in both the string and the object form', async (t) => {
  const { body } = translate(
    withContent([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}`, detail: 'high' } },
      { type: 'image_url', image_url: `data:image/webp;base64,${png}` },
    ]),
  );
  t.strictSame(userParts(body), [
    { text: 'What is this?' },
    { inlineData: { mimeType: 'image/png', data: png } },
    { inlineData: { mimeType: 'image/webp', data: png } },
  ]);
});

t.test('http(s) media comes from the media the caller fetched', async (t) => {
  const media = fetched([
    ['https://example.com/cat.jpg', { mimeType: 'image/jpeg', data: Buffer.from('cat') }],
    ['https://example.com/report.pdf', { mimeType: 'application/pdf; charset=binary', data: Buffer.from('%PDF') }],
  ]);
  const { body } = translate(
    withContent([
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'file', file: { url: 'https://example.com/report.pdf' } },
    ]),
    'gx-2.5-flash',
    media,
  );
  t.strictSame(userParts(body), [
    { inlineData: { mimeType: 'image/jpeg', data: Buffer.from('cat').toString('base64') } },
    { inlineData: { mimeType: 'application/pdf', data: Buffer.from('%PDF').toString('base64') } },
  ]);
});

t.test('input_audio base64 with a format becomes inline audio; a URL or data URI in data is resolved', async (t) => {
  const media = fetched([['https://example.com/a.wav', { mimeType: 'audio/wav', data: Buffer.from('RIFF') }]]);
  const { body } = translate(
    withContent([
      { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
      { type: 'input_audio', input_audio: { data: 'https://example.com/a.wav', format: 'wav' } },
      { type: 'input_audio', input_audio: { data: 'data:audio/mpeg;base64,SUQz', format: 'mp3' } },
    ]),
    'gx-2.5-flash',
    media,
  );
  t.strictSame(userParts(body), [
    { inlineData: { mimeType: 'audio/mp3', data: 'SUQz' } },
    { inlineData: { mimeType: 'audio/wav', data: Buffer.from('RIFF').toString('base64') } },
    { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
  ]);
});

t.test('file parts take a data URI, or raw base64 typed by the file name extension', async (t) => {
  const { body } = translate(
    withContent([
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
      { type: 'file', file: { file_data: 'aGVsbG8=', filename: 'notes.TXT' } },
    ]),
  );
  t.strictSame(userParts(body), [
    { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
    { inlineData: { mimeType: 'text/plain', data: 'aGVsbG8=' } },
  ]);
  t.throws(() => translate(withContent([{ type: 'file', file: { file_data: 'aGVsbG8=' } }])), { name: 'GatewayError', statusCode: 400, param: 'messages[0].content[0].file.filename' });
  t.throws(() => translate(withContent([{ type: 'file', file: { file_data: 'aGVsbG8=', filename: 'a.constructor' } }])), { name: 'GatewayError', statusCode: 400, param: 'messages[0].content[0].file.filename' });
  t.throws(() => translate(withContent([{ type: 'file', file: { file_id: 'file-123' } }])), { name: 'GatewayError', statusCode: 400, param: 'messages[0].content[0].file.file_id' });
});

t.test('every MIME type of the spec allowlist is accepted, image/jpg going out as image/jpeg', async (t) => {
  for (const mimeType of gxAllowedMimeTypes) {
    const { body } = translate(withContent([{ type: 'image_url', image_url: { url: `data:${mimeType};base64,AAAA` } }]));
    t.strictSame(userParts(body), [{ inlineData: { mimeType: mimeType === 'image/jpg' ? 'image/jpeg' : mimeType, data: 'AAAA' } }], mimeType);
  }
});

t.test('a MIME type outside the allowlist is a 400 naming the field', async (t) => {
  t.throws(() => translate(withContent([{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lG' } }])), {
    name: 'GatewayError',
    statusCode: 400,
    code: 'invalid_request',
    param: 'messages[0].content[1].image_url.url',
    message: /"image\/gif" is not supported/,
  });
  const media = fetched([['https://example.com/a.zip', { mimeType: 'application/zip', data: Buffer.from('PK') }]]);
  t.throws(() => translate(withContent([{ type: 'file', file: { url: 'https://example.com/a.zip' } }]), 'gx-2.5-flash', media), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'messages[0].content[0].file.url',
  });
  t.throws(() => translate(withContent([{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'flac' } }])), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'messages[0].content[0].input_audio.format',
  });
});

t.test('a malformed data URI, another URL scheme or an unknown part type is a 400 naming the field', async (t) => {
  t.throws(() => translate(withContent([{ type: 'image_url', image_url: { url: 'data:image/png;base64' } }])), { name: 'GatewayError', statusCode: 400, message: /not a valid data URI/ });
  t.throws(() => translate(withContent([{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }])), { name: 'GatewayError', statusCode: 400, message: /http\(s\) URL or a data URI/ });
  t.throws(() => translate(withContent([{ type: 'video_url', video_url: { url: 'https://example.com/a.mp4' } }])), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'messages[0].content[0].type',
  });
});

t.test('a URL the caller did not fetch is an internal error, not the client’s fault', async (t) => {
  t.throws(() => translate(withContent([{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }])), { name: 'GatewayError', statusCode: 500 });
});

t.test('percent-encoded data URIs are re-encoded as base64', async (t) => {
  const { body } = translate(withContent([{ type: 'file', file: { file_data: 'data:text/plain,hello%20world' } }]));
  t.strictSame(userParts(body), [{ inlineData: { mimeType: 'text/plain', data: Buffer.from('hello world').toString('base64') } }]);
});

t.test('markdown data-URI images inside string content become inline image parts, the text around them kept', async (t) => {
  const { body } = translate(withContent(`Compare ![first](data:image/png;base64,${png}) with ![](data:image/jpeg;base64,${png}) please.`));
  t.strictSame(userParts(body), [
    { text: 'Compare ' },
    { inlineData: { mimeType: 'image/png', data: png } },
    { text: ' with ' },
    { inlineData: { mimeType: 'image/jpeg', data: png } },
    { text: ' please.' },
  ]);
});

t.test('an assistant message echoing a generated image sends it back inline, with the stub signature', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'draw a cat' },
      { role: 'assistant', content: `Here it is\n\n![image](data:image/png;base64,${png})` },
      { role: 'user', content: 'now make it blue' },
    ],
  });
  t.strictSame((body.contents as unknown[])[1], {
    role: 'model',
    parts: [{ text: 'Here it is\n\n' }, { inlineData: { mimeType: 'image/png', data: png }, thoughtSignature: 'skip_thought_signature_validator' }],
  });
});

t.test('markdown http(s) images are fetched in user messages and stay text in assistant messages', async (t) => {
  const media = fetched([['https://example.com/cat.png', { mimeType: 'image/png', data: Buffer.from('cat') }]]);
  const { body } = translate(
    {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'See ![cat](https://example.com/cat.png)' }] },
        { role: 'assistant', content: 'Like ![dog](https://example.com/dog.png)?' },
      ],
    },
    'gx-2.5-flash',
    media,
  );
  t.strictSame(body.contents, [
    { role: 'user', parts: [{ text: 'See ' }, { inlineData: { mimeType: 'image/png', data: Buffer.from('cat').toString('base64') } }] },
    { role: 'model', parts: [{ text: 'Like ![dog](https://example.com/dog.png)?' }] },
  ]);
});

t.test('collectMediaReferences lists every http(s) URL to fetch once, in order, with the field that first gave it, and no data URIs', async (t) => {
  const request = chatRequest({
    messages: [
      { role: 'system', content: 'Look at ![x](https://example.com/system.png)' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one ![a](https://example.com/a.png) two ![b](data:image/png;base64,AAAA)' },
          { type: 'image_url', image_url: { url: 'https://example.com/b.jpg' } },
          { type: 'image_url', image_url: 'data:image/png;base64,AAAA' },
          { type: 'input_audio', input_audio: { data: 'http://example.com/c.wav', format: 'wav' } },
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'file', file: { url: 'https://example.com/d.pdf' } },
          { type: 'file', file: { file_data: 'https://example.com/e.pdf' } },
          { type: 'image_url', image_url: { url: 'https://example.com/b.jpg' } },
        ],
      },
      { role: 'user', content: 'and ![f](https://example.com/f.webp)' },
      { role: 'assistant', content: 'see ![g](https://example.com/not-fetched.png)' },
    ],
  });
  t.strictSame(collectMediaReferences(request), [
    { source: 'https://example.com/a.png', field: 'messages[1].content[0].text' },
    { source: 'https://example.com/b.jpg', field: 'messages[1].content[1].image_url.url' },
    { source: 'http://example.com/c.wav', field: 'messages[1].content[3].input_audio.data' },
    { source: 'https://example.com/d.pdf', field: 'messages[1].content[5].file.url' },
    { source: 'https://example.com/e.pdf', field: 'messages[1].content[6].file.file_data' },
    { source: 'https://example.com/f.webp', field: 'messages[2].content' },
  ]);
  t.strictSame(collectMediaReferences(chatRequest({})), []);
});

t.test('markdown scanning stays linear on hostile input', async (t) => {
  const hostile = '![](data:'.repeat(200_000);
  const started = performance.now();
  const { body } = translate(withContent(hostile));
  t.strictSame(userParts(body), [{ text: hostile }]);
  t.ok(performance.now() - started < 2000, 'finished quickly');
});
