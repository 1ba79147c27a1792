import t from 'tap';
import type { VideoSubmitRequest } from '../../../../core/index.js';
import { estimateVoUsage } from '../../../../providers/vo/vo-billing.js';
import { readVoRequest } from '../../../../providers/vo/read-vo-request.js';
import { toVoRequest } from '../../../../providers/vo/vo-video-operations.js';
import { keysDeep, voFixture } from './fixtures/read-vo-fixture.js';

const plan = (fields: Record<string, unknown>, model = 'vo-3.1-fast-generate-preview') => readVoRequest({ model, ...fields } as VideoSubmitRequest);
const png = { bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' };
const jpeg = { bytesBase64Encoded: '/9j/4AAQ', mimeType: 'image/jpeg' };

t.test('the fixture request comes out field for field from the client fields that mean it', async (t) => {
  const recorded = voFixture('gemini-veo-operation.json').submit_request;
  const body = toVoRequest(
    plan({ prompt: recorded.instances[0].prompt, durationSeconds: 8, resolution: '720p', negativePrompt: 'blurry', personGeneration: 'allow_adult', image: 'https://example.com/a.png' }),
    { image: { ...png, bytesBase64Encoded: '<base64>' } },
  );
  t.strictSame(body, recorded);
  t.strictSame(keysDeep(body), keysDeep(recorded), 'the same keys in the same order');
});

t.test('length, ratio, resolution and count always go out, so what is made is what was billed', async (t) => {
  t.strictSame(toVoRequest(plan({ prompt: 'a fox' }), {}), {
    instances: [{ prompt: 'a fox' }],
    parameters: { aspectRatio: '16:9', durationSeconds: 4, resolution: '1080p', sampleCount: 1 },
  });
});

t.test('fields the Gemini API does not take for videos never go out', async (t) => {
  const body = toVoRequest(plan({ prompt: 'a fox', seed: 7, fps: 24, generateAudio: true, addWatermark: true }), {});
  t.strictSame(Object.keys(body.parameters), ['aspectRatio', 'durationSeconds', 'resolution', 'sampleCount']);
  t.strictSame(Object.keys(body.instances[0]), ['prompt']);
});

t.test('a first and a last frame go into the one instance', async (t) => {
  const body = toVoRequest(plan({ prompt: 'morph', image: 'https://a/1.png', lastFrame: 'https://a/2.jpg' }), { image: png, lastFrame: jpeg });
  t.strictSame(body.instances, [{ prompt: 'morph', image: png, lastFrame: jpeg }]);
});

t.test('the estimate bills every requested video at its length, keyed by resolution', async (t) => {
  const estimate = (fields: Record<string, unknown>) => estimateVoUsage(readVoRequest({ model: 'vo-3.0-fast-generate-001', prompt: 'x', ...fields } as VideoSubmitRequest));
  t.match(estimate({}), { seconds: 4, resolution: '1080p', source: 'estimated', inputTokens: 0, outputTokens: 0 });
  t.match(estimate({ durationSeconds: 8, sampleCount: 3, resolution: '720p' }), { seconds: 24, resolution: '720p' });
  t.throws(() => estimate({ lastFrame: 'https://a/2.png', image: 'https://a/1.png' }), { statusCode: 400, param: 'lastFrame', message: /first frame only/ }, 'prepare (readVoRequest) refuses what the family refuses, before the estimate');
});
