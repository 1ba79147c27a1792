import t from 'tap';
import type { ImageRequest } from '../../../../core/index.js';
import { readGxImageRequest } from '../../../../providers/gx/images/read-gx-image-request.js';

const request = (fields: Record<string, unknown> = {}): ImageRequest => ({ model: 'gx-2.5-flash-image', prompt: 'a red fox', ...fields }) as ImageRequest;
const plan = (fields: Record<string, unknown> = {}) => readGxImageRequest(request(fields));
const refused = (fields: Record<string, unknown>) => ({ name: 'GatewayError', statusCode: 400, code: 'invalid_request', ...fields });

t.test('a prompt alone plans one text part, image only, 1K and the model default ratio', async (t) => {
  t.strictSame(plan(), {
    parts: [{ kind: 'text', text: 'a red fox' }],
    withText: false,
    aspectRatio: undefined,
    imageSize: '1K',
    temperature: undefined,
    topP: undefined,
  });
});

t.test('pixel sizes of the table map to their ratios and listed ratios pass as given', async (t) => {
  const ratios: Record<string, string> = {
    '256x256': '1:1',
    '512x512': '1:1',
    '1024x1024': '1:1',
    '1536x1024': '3:2',
    '1024x1536': '2:3',
    '1024x1792': '9:16',
    '1792x1024': '16:9',
    '1024X1024': '1:1',
  };
  for (const [size, ratio] of Object.entries(ratios)) t.equal(plan({ size }).aspectRatio, ratio, size);
  for (const ratio of ['1:1', '3:2', '2:3', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']) t.equal(plan({ size: ratio }).aspectRatio, ratio, ratio);
});

t.test('an unknown size leaves the ratio to the model default instead of failing', async (t) => {
  for (const size of ['2048x2048', 'auto', '7:3', '', 'constructor', '__proto__']) t.equal(plan({ size }).aspectRatio, undefined, JSON.stringify(size));
});

t.test('quality maps to tiers: hd, high and 2K give 2K; the rest and nothing give 1K', async (t) => {
  for (const quality of ['hd', 'high', '2K', '2k', 'HD']) t.equal(plan({ quality }).imageSize, '2K', quality);
  for (const quality of ['standard', 'medium', 'low', 'auto', '1K']) t.equal(plan({ quality }).imageSize, '1K', quality);
  t.equal(plan().imageSize, '1K');
});

t.test('image_size names the tier and wins over quality', async (t) => {
  t.equal(plan({ image_size: '4K' }).imageSize, '4K');
  t.equal(plan({ image_size: '2k' }).imageSize, '2K');
  t.equal(plan({ image_size: '1K', quality: 'hd' }).imageSize, '1K');
  t.equal(plan({ image_size: '4K', quality: 'low' }).imageSize, '4K');
});

t.test('image-text asks for the model text too', async (t) => {
  t.equal(plan({ response_modalities: 'image-text' }).withText, true);
  t.equal(plan({ response_modalities: 'image' }).withText, false);
});

t.test('temperature and top_p are planned; n, response_format, sample_count, mime_type and user are accepted', async (t) => {
  const planned = plan({ temperature: 0.4, top_p: 0.9, n: 4, response_format: 'url', sample_count: 2, mime_type: 'image/jpeg', user: 'u-1', stream: false });
  t.equal(planned.temperature, 0.4);
  t.equal(planned.topP, 0.9);
  t.strictSame(planned.parts, [{ kind: 'text', text: 'a red fox' }]);
});

t.test('reference images come before the prompt, named by their field', async (t) => {
  t.strictSame(plan({ image: 'https://example.com/a.png' }).parts, [
    { kind: 'image', source: 'https://example.com/a.png', param: 'image' },
    { kind: 'text', text: 'a red fox' },
  ]);
  t.strictSame(plan({ image: ['aGVsbG8=', 'data:image/png;base64,aGVsbG8='] }).parts, [
    { kind: 'image', source: 'aGVsbG8=', param: 'image[0]' },
    { kind: 'image', source: 'data:image/png;base64,aGVsbG8=', param: 'image[1]' },
    { kind: 'text', text: 'a red fox' },
  ]);
});

t.test('contents parts keep their order, and flat image and prompt follow them', async (t) => {
  const contents = [
    { role: 'user', parts: [{ text: 'put the hat' }, { image: 'aGF0' }] },
    { parts: [{ text: 'on the cat' }, { image: 'Y2F0' }] },
  ];
  t.strictSame(readGxImageRequest(request({ prompt: undefined, contents })).parts, [
    { kind: 'text', text: 'put the hat' },
    { kind: 'image', source: 'aGF0', param: 'contents[0].parts[1].image' },
    { kind: 'text', text: 'on the cat' },
    { kind: 'image', source: 'Y2F0', param: 'contents[1].parts[1].image' },
  ]);
  t.strictSame(plan({ contents: [{ role: 'user', parts: [{ image: 'aGF0' }] }], image: 'Y2F0' }).parts, [
    { kind: 'image', source: 'aGF0', param: 'contents[0].parts[0].image' },
    { kind: 'image', source: 'Y2F0', param: 'image' },
    { kind: 'text', text: 'a red fox' },
  ]);
  t.strictSame(plan({ prompt: '', contents: [{ parts: [{ text: 'x' }] }] }).parts, [{ kind: 'text', text: 'x' }], 'an empty prompt beside contents is left out');
});

t.test('neither prompt nor contents, or an empty prompt, is a 400 naming prompt', async (t) => {
  t.throws(() => plan({ prompt: undefined }), refused({ param: 'prompt', message: /prompt: required/ }));
  t.throws(() => plan({ prompt: '   ' }), refused({ param: 'prompt', message: /must not be empty/ }));
  t.throws(() => plan({ prompt: '  ', image: 'aGVsbG8=' }), refused({ param: 'prompt' }));
});

t.test('a multipart body and a mask are refused, saying to send JSON without a mask', async (t) => {
  t.throws(() => plan({ uploads: [] }), refused({ message: /JSON body, not multipart\/form-data.*without a mask/ }));
  t.throws(() => plan({ mask: 'aGVsbG8=' }), refused({ param: 'mask', message: /send JSON without a mask/ }));
  t.throws(() => plan({ extra_body: { gx: {} } }), refused({ param: 'extra_body' }));
});

t.test('every invalid value is a 400 that names its field', async (t) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ quality: 'ultra' }, 'quality'],
    [{ quality: 4 }, 'quality'],
    [{ quality: 'constructor' }, 'quality'],
    [{ image_size: '8K' }, 'image_size'],
    [{ image_size: 'constructor' }, 'image_size'],
    [{ mime_type: 'image/webp' }, 'mime_type'],
    [{ response_modalities: 'text' }, 'response_modalities'],
    [{ size: 1024 }, 'size'],
    [{ temperature: -1 }, 'temperature'],
    [{ temperature: 'warm' }, 'temperature'],
    [{ top_p: 1.5 }, 'top_p'],
    [{ sample_count: 0 }, 'sample_count'],
    [{ sample_count: 1.5 }, 'sample_count'],
    [{ stream: true }, 'stream'],
    [{ image: 42 }, 'image'],
    [{ image: '' }, 'image'],
    [{ image: [] }, 'image'],
    [{ image: ['aGVsbG8=', ''] }, 'image[1]'],
    [{ image: Array.from({ length: 15 }, () => 'aGVsbG8=') }, 'image'],
    [{ contents: [] }, 'contents'],
    [{ contents: 'draw' }, 'contents'],
    [{ contents: [{ role: 'model', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    [{ contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts'],
    [{ contents: [{ role: 'user', parts: [{ text: 'x', image: 'aGVsbG8=' }] }] }, 'contents[0].parts[0]'],
    [{ contents: [{ role: 'user', parts: [{}] }] }, 'contents[0].parts[0]'],
    [{ contents: [{ role: 'user', parts: [{ text: '' }] }] }, 'contents[0].parts[0].text'],
    [{ contents: [{ role: 'user', parts: [{ inlineData: {} }] }] }, 'contents[0].parts[0].inlineData'],
    [{ style: 'vivid' }, 'style'],
  ];
  for (const [fields, param] of cases) {
    t.throws(() => plan(fields), refused({ param, message: new RegExp(`^(unknown field "${param.replace(/[[\]]/g, '\\$&')}"|${param.replace(/[[\]]/g, '\\$&')}: )`) }), JSON.stringify(fields));
  }
});

t.test('an unknown field is named with the list of fields the family takes', async (t) => {
  t.throws(() => plan({ aspect_ratio: '16:9' }), refused({ message: /unknown field "aspect_ratio"; the gx image models take model, prompt, image, contents, size, quality, image_size/ }));
});
