import t from 'tap';
import { toSrCreateFields, toSrCreateForm, toSrRemixBody } from '../../../../providers/sr/sr-video-operations.js';
import type { SrRequestPlan } from '../../../../providers/sr/read-sr-request.js';

const plan: SrRequestPlan = { prompt: 'a fox in snow', seconds: 8, size: '1280x720' };

t.test('a new video spells out every field, seconds as the upstream’s string enum', async (t) => {
  t.strictSame(toSrCreateFields(plan, 'sora-2'), { model: 'sora-2', prompt: 'a fox in snow', seconds: '8', size: '1280x720' });
});

t.test('image-to-video is a form with the text fields and the image as the file input_reference', async (t) => {
  const data = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const form = toSrCreateForm(toSrCreateFields(plan, 'sora-2'), { filename: 'input_reference.jpg', mimeType: 'image/jpeg', data });
  t.strictSame([...form.keys()], ['model', 'prompt', 'seconds', 'size', 'input_reference']);
  t.equal(form.get('seconds'), '8');
  const file = form.get('input_reference') as File;
  t.match(file, { name: 'input_reference.jpg', type: 'image/jpeg' });
  t.strictSame(Buffer.from(await file.arrayBuffer()), data);
});

t.test('a remix sends only the prompt', async (t) => {
  t.strictSame(toSrRemixBody({ ...plan, remixFromVideoId: 'video_1' }), { prompt: 'a fox in snow' });
});
