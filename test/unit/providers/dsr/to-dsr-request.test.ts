import t from 'tap';
import { dsrModelProfile } from '../../../../providers/dsr/dsr-model-profiles.js';
import { readDsrRequest } from '../../../../providers/dsr/read-dsr-request.js';
import { toDsrRequest } from '../../../../providers/dsr/dsr-images-operation.js';

const profile = (model: string) => dsrModelProfile(model, model);
const body = (fields: Record<string, unknown>, images: string[] = []) => {
  const request = readDsrRequest(fields);
  return toDsrRequest(request, { upstreamModel: `upstream-${request.model}`, prompt: 'the prompt', images, profile: profile(request.model) });
};

t.test('only the fields the client sent go out, with the upstream model and stream false', async (t) => {
  t.strictSame(body({ model: 'dsr-4-0-250828' }), { model: 'upstream-dsr-4-0-250828', prompt: 'the prompt', stream: false });
  t.strictSame(body({ model: 'dsr-4-0-250828', size: '2K', seed: 7, watermark: true, response_format: 'b64_json', optimize_prompt_options: { mode: 'fast' } }), {
    model: 'upstream-dsr-4-0-250828',
    prompt: 'the prompt',
    size: '2K',
    seed: 7,
    optimize_prompt_options: { mode: 'fast' },
    response_format: 'b64_json',
    watermark: true,
    stream: false,
  });
});

t.test('the 3.0 models always send guidance_scale, 2.5 unless the client chose', async (t) => {
  t.equal(body({ model: 'dsr-3-0-t2i-250415' }).guidance_scale, 2.5);
  t.equal(body({ model: 'dse-3-0-i2i-250628' }, ['data:image/png;base64,AA==']).guidance_scale, 2.5);
  t.equal(body({ model: 'dsr-3-0-t2i-250415', guidance_scale: 8 }).guidance_scale, 8);
  t.notOk('guidance_scale' in body({ model: 'dsr-4-5-251128' }));
});

t.test('a group always names its max_images, 4 unless the client chose', async (t) => {
  t.strictSame(body({ model: 'dsr-4-5-251128', sequential_image_generation: 'auto' }).sequential_image_generation_options, { max_images: 4 });
  t.strictSame(body({ model: 'dsr-4-5-251128', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 2 } }).sequential_image_generation_options, {
    max_images: 2,
  });
  const disabled = body({ model: 'dsr-4-5-251128', sequential_image_generation: 'disabled' });
  t.equal(disabled.sequential_image_generation, 'disabled');
  t.notOk('sequential_image_generation_options' in disabled);
});

t.test('one reference image goes out as a string, several as an array, none as nothing', async (t) => {
  t.equal(body({ model: 'dsr-4-0-250828' }, ['data:image/png;base64,AA==']).image, 'data:image/png;base64,AA==');
  t.strictSame(body({ model: 'dsr-4-0-250828' }, ['data:image/png;base64,AA==', 'data:image/jpeg;base64,/9j/']).image, ['data:image/png;base64,AA==', 'data:image/jpeg;base64,/9j/']);
  t.notOk('image' in body({ model: 'dsr-4-0-250828' }));
});
