import t from 'tap';
import { GatewayError, type ImageRequest, type ImageUpload } from '../../../../core/index.js';
import { readGiRequest } from '../../../../providers/gi/read-gi-request.js';

const request = (fields: Record<string, unknown>): ImageRequest => ({ model: 'gi-2', prompt: 'a lighthouse at dusk', ...fields }) as ImageRequest;
const upload = (field: string, filename = 'in.png'): ImageUpload => ({ field, filename, mimeType: 'image/png', data: Buffer.from('png') });

function refusal(fields: Record<string, unknown>, operation: 'generate' | 'edit' = 'generate'): GatewayError {
  try {
    readGiRequest(request(fields), operation);
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(fields)} to be refused`);
}

t.test('the spec defaults apply: one image, 1024x1024, high quality, no references', async (t) => {
  const plan = readGiRequest(request({}), 'generate');
  t.match(plan.fields, { model: 'gi-2', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1024', quality: 'high' });
  t.equal(plan.fields.input_fidelity, undefined);
  t.strictSame(plan.references, []);
  t.equal(plan.mask, undefined);
});

t.test('every documented value is accepted', async (t) => {
  const plan = readGiRequest(
    request({
      n: 10,
      size: '2048x1152',
      quality: 'auto',
      input_fidelity: 'medium',
      response_format: 'url',
      background: 'transparent',
      output_format: 'webp',
      output_compression: 80,
      moderation: 'low',
      user: 'user-1',
      stream: false,
    }),
    'generate',
  );
  t.match(plan.fields, { n: 10, size: '2048x1152', quality: 'auto', input_fidelity: 'medium', output_compression: 80 });
});

t.test('each wrong value is a 400 invalid_request that names the field', async (t) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ prompt: undefined }, /^prompt: required$/],
    [{ prompt: '   ' }, /^prompt: must not be empty/],
    [{ prompt: 42 }, /^prompt: expected the prompt as a string/],
    [{ n: 11 }, /^n: expected at most 10 images per request$/],
    [{ n: 0 }, /^n: expected at least 1$/],
    [{ n: 1.5 }, /^n: expected a whole number from 1 to 10$/],
    [{ size: '1024*1024' }, /^size: expected 1024x1024, 1024x1536, 1536x1024, auto, or WIDTHxHEIGHT/],
    [{ size: '1000x1000' }, /^size: both sides must be multiples of 16/],
    [{ quality: 'hd' }, /^quality: expected low, medium, high or auto$/],
    [{ input_fidelity: 'max' }, /^input_fidelity: expected low, medium, high or auto$/],
    [{ response_format: 'png' }, /^response_format: expected b64_json or url$/],
    [{ background: 'clear' }, /^background: /],
    [{ output_format: 'gif' }, /^output_format: /],
    [{ output_compression: 101 }, /^output_compression: expected at most 100$/],
    [{ moderation: 'off' }, /^moderation: /],
    [{ stream: true }, /^stream: streamed image generation is not offered/],
    [{ image: 42 }, /^image: expected an http\(s\) URL or a data: URI, or a list of them$/],
    [{ images: 'https://example.com/a.png' }, /^images: expected a list/],
    [{ images: ['https://example.com/a.png', ''] }, /^images\[1\]: must not be empty$/],
    [{ images: ['iVBORw0KGgo='] }, /^images\[0\]: expected an http\(s\) URL or a data: URI/],
    [{ image: 'ftp://example.com/a.png' }, /^image: expected an http\(s\) URL or a data: URI/],
    [{ style: 'vivid' }, /^unknown field "style": gi models take model, prompt, n, size, quality/],
    [{ contents: [] }, /^contents: not used by gi models/],
  ];
  for (const [fields, message] of cases) {
    const error = refusal(fields);
    t.match(error, { statusCode: 400, code: 'invalid_request', message }, JSON.stringify(fields));
    t.ok(error.param !== undefined, `param is set for ${JSON.stringify(fields)}`);
  }
});

t.test('multipart text fields are read as their JSON values', async (t) => {
  const plan = readGiRequest({ ...request({ output_compression: '60', stream: 'false' }), uploads: [] }, 'generate');
  t.equal(plan.fields.output_compression, 60);
  t.equal(plan.fields.stream, false);
});

t.test('references come in order: uploaded files, then image, then images', async (t) => {
  const plan = readGiRequest(
    { ...request({ image: 'https://example.com/a.png', images: ['data:image/png;base64,AAAA', 'https://example.com/c.webp'] }), uploads: [upload('image[]', 'x.png'), upload('image', 'y.png')] },
    'edit',
  );
  t.strictSame(
    plan.references.map((source) => ('upload' in source ? `${source.field}:${source.upload.filename}` : `${source.field}:${source.url}`)),
    ['image[]:x.png', 'image:y.png', 'image:https://example.com/a.png', 'images[0]:data:image/png;base64,AAAA', 'images[1]:https://example.com/c.webp'],
  );
  const list = readGiRequest(request({ image: ['https://example.com/a.png', 'https://example.com/b.png'] }), 'generate');
  t.strictSame(list.references.map((source) => source.field), ['image[0]', 'image[1]']);
});

t.test('an edit needs an image; a mask needs one too and comes once', async (t) => {
  t.match(refusal({}, 'edit'), { code: 'invalid_request', param: 'image', message: /^image: an edit needs the image to edit/ });
  t.match(refusal({ mask: 'https://example.com/m.png' }), { param: 'mask', message: /^mask: a mask needs an image to edit/ });
  const masked = readGiRequest({ ...request({}), uploads: [upload('image[]'), upload('mask', 'm.png')] }, 'edit');
  t.equal(masked.mask !== undefined && 'upload' in masked.mask ? masked.mask.upload.filename : undefined, 'm.png');
  t.throws(() => readGiRequest({ ...request({ mask: 'https://example.com/m.png' }), uploads: [upload('image[]'), upload('mask')] }, 'edit'), { message: /^mask: send one mask at most/ });
});

t.test('files in other fields, and more than 16 references, are refused', async (t) => {
  t.throws(() => readGiRequest({ ...request({}), uploads: [upload('file')] }, 'edit'), { message: /^unknown file field "file": send reference images as image\[\]/ });
  const many = Array.from({ length: 17 }, () => upload('image[]'));
  t.throws(() => readGiRequest({ ...request({}), uploads: many }, 'edit'), { message: /^image: at most 16 reference images per request \(got 17\)/ });
});
