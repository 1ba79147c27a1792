import t from 'tap';
import type { ImageRequest } from '../../../../core/index.js';
import { readQiRequest, type QiModelKind } from '../../../../providers/qi/read-qi-request.js';
import { qiFixture } from './fixtures/read-qi-fixture.js';

const textToImage: QiModelKind = { operation: 'images.generate', model: 'qi-plus', edit: false };
const editing: QiModelKind = { operation: 'images.edit', model: 'qi-edit-plus', edit: true };
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4n8XA0HEGhIEsACbKBXsQxtCmAAAAAElFTkSuQmCC', 'base64');

const read = (body: Record<string, unknown>, kind = textToImage) => readQiRequest(body as ImageRequest, kind);
const refusal = (body: Record<string, unknown>, kind = textToImage): string => {
  try {
    read(body, kind);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

t.test('the native body of the recorded request reads into its prompt and parameters', async (t) => {
  const recorded = qiFixture('request_qwen_image_plus');
  const job = read({ ...recorded, model: 'qi-plus' });
  t.strictSame(job, {
    prompt: recorded.input.messages[0].content[0].text,
    images: [],
    imagesPath: ['input', 'messages', 0, 'content'],
    parameters: { negative_prompt: '', prompt_extend: true, watermark: false, size: '1328*1328' },
    parametersPath: ['parameters'],
    responseFormat: 'url',
  });
});

t.test('native images keep their order and their field paths, wherever the text item sits', async (t) => {
  const content = [{ image: 'https://a/1.png' }, { text: 'swap them' }, { image: 'https://a/2.png' }];
  const job = read({ model: 'qi-edit-plus', input: { messages: [{ role: 'user', content }] }, response_format: 'b64_json' }, editing);
  t.strictSame(job.images, [
    { value: 'https://a/1.png', path: ['input', 'messages', 0, 'content', 0, 'image'] },
    { value: 'https://a/2.png', path: ['input', 'messages', 0, 'content', 2, 'image'] },
  ]);
  t.equal(job.prompt, 'swap them');
  t.equal(job.responseFormat, 'b64_json');
});

t.test('the flat form maps prompt, image and top-level parameters, and rewrites WxH sizes', async (t) => {
  const job = read({ model: 'qi-edit-plus', prompt: 'make it blue', image: ['https://a/1.png', 'https://a/2.png'], n: 2, size: '1024x768', seed: 3, watermark: true }, editing);
  t.strictSame(job, {
    prompt: 'make it blue',
    images: [
      { value: 'https://a/1.png', path: ['image', 0] },
      { value: 'https://a/2.png', path: ['image', 1] },
    ],
    imagesPath: ['image'],
    parameters: { n: 2, size: '1024*768', seed: 3, watermark: true },
    parametersPath: [],
    responseFormat: 'url',
  });
  t.strictSame(read({ model: 'qi-edit-plus', prompt: 'x', image: 'https://a/1.png' }, editing).images, [{ value: 'https://a/1.png', path: ['image'] }]);
});

t.test('a multipart form takes image files in order as data URIs and text flags as booleans', async (t) => {
  const uploads = [
    { field: 'image[]', filename: 'a.png', mimeType: 'application/octet-stream', data: png },
    { field: 'image[]', filename: 'b.png', mimeType: 'image/png', data: png },
  ];
  const job = read({ model: 'qi-edit-plus', prompt: 'blend', prompt_extend: 'false', watermark: 'true', n: 2, uploads }, editing);
  t.strictSame(
    job.images.map((image) => image.path),
    [
      ['image', 0],
      ['image', 1],
    ],
  );
  t.equal(job.images[0]!.value, `data:image/png;base64,${png.toString('base64')}`);
  t.strictSame(job.parameters, { prompt_extend: false, watermark: true, n: 2 });
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', uploads: [{ field: 'mask', filename: 'm.png', mimeType: 'image/png', data: png }] }, editing), /^mask: unknown file field/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', uploads: [{ field: 'image', filename: 'a.gif', mimeType: 'image/gif', data: Buffer.from('GIF89a') }] }, editing), /^image\[0\]: the file "a.gif" is not a PNG, JPEG or WebP image/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', image: 'https://a/1.png', uploads: [] }, editing), /^image: in a multipart body send images as files/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', watermark: 'yes', uploads: [{ field: 'image', filename: 'a.png', mimeType: 'image/png', data: png }] }, editing), /^watermark: expected true or false/);
});

t.test('what the model does decides the route, the image count and n', async (t) => {
  t.match(refusal({ model: 'qi-plus', prompt: 'a cat' }, { ...textToImage, operation: 'images.edit' }), /^model: qi-plus makes images from text only; send it to \/v1\/images\/generations/);
  t.match(refusal({ model: 'qi-plus', prompt: 'a cat', image: 'https://a/1.png' }), /^image: qi-plus makes images from text only and takes no input image/);
  t.match(refusal({ model: 'qi-plus', prompt: 'a cat', n: 2 }), /^n: qi-plus makes exactly 1 image per call/);
  t.match(refusal({ model: 'qi-plus', input: { messages: [{ role: 'user', content: [{ text: 'a' }] }] }, parameters: { n: 3 } }), /^parameters\.n: qi-plus makes exactly 1/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x' }, editing), /^image: qi-edit-plus edits 1 to 3 input images; add at least one/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', image: ['https://a/1', 'https://a/2', 'https://a/3', 'https://a/4'] }, editing), /^image\[3\]: qi-edit-plus takes at most 3 input images/);
  t.match(refusal({ model: 'qi-edit-plus', prompt: 'x', image: 'https://a/1', n: 7 }, editing), /^n: expected 1 to 6 images for qi-edit-plus/);
  t.equal(read({ model: 'qi-edit-plus', prompt: 'x', image: 'https://a/1', n: 6 }, { ...editing, operation: 'images.generate' }).parameters.n, 6, 'an edit model also works on generations');
});

t.test('every malformed field is a 400 that starts with its path', async (t) => {
  const native = (content: unknown, extra: Record<string, unknown> = {}) => ({ model: 'qi-plus', input: { messages: [{ role: 'user', content }] }, ...extra });
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ model: 'qi-plus' }, /^prompt: required/],
    [{ model: 'qi-plus', prompt: '  ' }, /^prompt: must not be empty/],
    [{ model: 'qi-plus', prompt: 'x', quality: 'hd' }, /^quality: unknown field; check its spelling \(the flat body takes model, prompt, image, response_format, n, negative_prompt/],
    [{ model: 'qi-plus', prompt: 'x', contents: [] }, /^contents: unknown field/],
    [{ model: 'qi-plus', prompt: 'x', input: {} }, /^prompt: send either input and parameters, or the flat fields/],
    [{ model: 'qi-plus', parameters: {} }, /^input: required/],
    [{ model: 'qi-plus', input: { messages: [] } }, /^input\.messages: expected exactly one user message/],
    [{ model: 'qi-plus', input: { messages: 'hi' } }, /^input\.messages: expected an array with one user message/],
    [{ model: 'qi-plus', input: { messages: [{ role: 'assistant', content: [{ text: 'x' }] }] } }, /^input\.messages\[0\]\.role: expected "user"/],
    [{ model: 'qi-plus', input: { messages: [{ content: [{ text: 'x' }] }] } }, /^input\.messages\[0\]\.role: required/],
    [{ model: 'qi-plus', input: { messages: [{ role: 'user', content: [{ text: 'x' }] }], prompt_mode: 1 } }, /^input\.prompt_mode: unknown field/],
    [native([]), /^input\.messages\[0\]\.content: expected the prompt as a \{"text": \.\.\.\} item/],
    [native([{ image: 'https://a/1' }]), /^input\.messages\[0\]\.content: expected the prompt as a \{"text": \.\.\.\} item/],
    [native([{ text: '' }]), /^input\.messages\[0\]\.content\[0\]\.text: must not be empty/],
    [native([{ text: 'a' }, { text: 'b' }]), /^input\.messages\[0\]\.content\[1\]\.text: expected one text item/],
    [native([{ text: 'a', image: 'https://a/1' }]), /^input\.messages\[0\]\.content\[0\]: expected either text or image in one item, not both/],
    [native([{ video: 'x' }]), /^input\.messages\[0\]\.content\[0\]\.video: unknown field; check its spelling \(a content item is \{"text": \.\.\.\} or \{"image": \.\.\.\}\)$/],
    [native([{ text: 5 }]), /^input\.messages\[0\]\.content\[0\]\.text: expected the prompt as a string/],
    [native([{ text: 'a' }, { image: 7 }]), /^input\.messages\[0\]\.content\[1\]\.image: expected an image URL/],
    [native([{ text: 'a' }], { parameters: { n: 0 } }), /^parameters\.n: expected at least 1/],
    [native([{ text: 'a' }], { parameters: { n: 1.5 } }), /^parameters\.n: expected a whole number/],
    [native([{ text: 'a' }], { parameters: { size: '1024' } }), /^parameters\.size: expected width\*height in pixels/],
    [native([{ text: 'a' }], { parameters: { size: '0*10' } }), /^parameters\.size: expected width\*height/],
    [native([{ text: 'a' }], { parameters: { seed: -1 } }), /^parameters\.seed: expected a whole number from 0 to 2147483647/],
    [native([{ text: 'a' }], { parameters: { seed: 2147483648 } }), /^parameters\.seed: expected a whole number from 0 to 2147483647/],
    [native([{ text: 'a' }], { parameters: { prompt_extend: 'yes' } }), /^parameters\.prompt_extend: expected true or false/],
    [native([{ text: 'a' }], { parameters: { watermark: 1 } }), /^parameters\.watermark: expected true or false/],
    [native([{ text: 'a' }], { parameters: { negative_prompt: 5 } }), /^parameters\.negative_prompt: expected a string/],
    [native([{ text: 'a' }], { parameters: { style: '<auto>' } }), /^parameters\.style: unknown field; check its spelling \(parameters are n, negative_prompt, prompt_extend, seed, watermark and size\)$/],
    [native([{ text: 'a' }], { parameters: 'n=1' }), /^parameters: expected an object of parameters/],
    [{ model: 'qi-plus', prompt: 'x', image: 5 }, /^image: expected an image/],
    [{ model: 'qi-plus', prompt: 'x', image: ['https://a/1', 5] }, /^image\[1\]: expected an image URL/],
  ];
  for (const [body, message] of cases) t.match(refusal(body), message, JSON.stringify(body));
});
