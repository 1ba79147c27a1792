import t from 'tap';
import type { ImageRequest } from '../../../../core/index.js';
import { readGiRequest } from '../../../../providers/gi/read-gi-request.js';
import { toGiEditForm, toGiGenerationBody, toGiInputFidelity } from '../../../../providers/gi/to-gi-request.js';

const fieldsOf = (request: Record<string, unknown>) => readGiRequest({ model: 'gi-2', prompt: 'a cat', ...request } as ImageRequest, 'generate').fields;
const png = { filename: 'in.png', mimeType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };

t.test('a generation sends the mapped model and the spec defaults, never response_format or input_fidelity', async (t) => {
  const body = toGiGenerationBody(fieldsOf({ response_format: 'url', input_fidelity: 'high' }), 'gpt-image-2');
  t.strictSame(body, { model: 'gpt-image-2', prompt: 'a cat', n: 1, size: '1024x1024', quality: 'high' });
});

t.test('the output options go through as given', async (t) => {
  const body = toGiGenerationBody(fieldsOf({ n: 3, size: 'auto', quality: 'low', background: 'transparent', output_format: 'webp', output_compression: 70, moderation: 'low', user: 'u-1' }), 'gpt-image-2');
  t.strictSame(body, {
    model: 'gpt-image-2',
    prompt: 'a cat',
    n: 3,
    size: 'auto',
    quality: 'low',
    background: 'transparent',
    output_format: 'webp',
    output_compression: 70,
    user: 'u-1',
    moderation: 'low',
  });
});

t.test('input_fidelity: high and low as they are, medium as low, auto left to the upstream', async (t) => {
  t.equal(toGiInputFidelity('high'), 'high');
  t.equal(toGiInputFidelity('low'), 'low');
  t.equal(toGiInputFidelity('medium'), 'low');
  t.equal(toGiInputFidelity('auto'), undefined);
  t.equal(toGiInputFidelity(undefined), undefined);
});

t.test('an edit form has the text fields, every reference as an image[] file with its type, then the mask', async (t) => {
  const form = toGiEditForm(fieldsOf({ n: 2, input_fidelity: 'medium', moderation: 'low', response_format: 'b64_json' }), 'gpt-image-2', [png, { ...png, filename: 'b.webp', mimeType: 'image/webp' }], {
    ...png,
    filename: 'mask.png',
  });
  const entries = [...form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : `${value.name} ${value.type} ${value.size}`]);
  t.strictSame(entries, [
    ['model', 'gpt-image-2'],
    ['prompt', 'a cat'],
    ['n', '2'],
    ['size', '1024x1024'],
    ['quality', 'high'],
    ['input_fidelity', 'low'],
    ['image[]', 'in.png image/png 7'],
    ['image[]', 'b.webp image/webp 7'],
    ['mask', 'mask.png image/png 7'],
  ]);
  const file = form.getAll('image[]')[0] as File;
  t.strictSame(Buffer.from(await file.arrayBuffer()), png.data, 'the bytes intact');
});
