import t, { type Test } from 'tap';
import { demoVideoRequests } from '../../demo/demo-commands.js';
import { videoBehaviours } from '../fakes/openai/fake-openai-upstream.js';
import { assertOpenAiSchema, openAiSchemaAllowances as allowances } from '../helpers/openai-schema.js';
import { startEveryFamilyGateway } from './every-family-gateway.js';

// `/v1/videos` shows the video tasks of every family (the demo's submission of each) as OpenAI
// video objects: each, from its submission to its end, against VideoResource.

const { postJson, call, upstreams } = await startEveryFamilyGateway(t);

/** The object the submission answered, then each poll until the video is finished. */
async function lifecycle(t: Test, body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const created = await postJson('/v1/videos', body);
  t.equal(created.statusCode, 200, `${body.model} is accepted`);
  const objects = [created.json() as Record<string, unknown>];
  for (let poll = 0; poll < 10 && !['completed', 'failed'].includes(String(objects.at(-1)!.status)); poll += 1) {
    objects.push((await call({ method: 'GET', url: `/v1/videos/${String(objects[0]!.id)}` })).json());
  }
  t.match(objects.at(-1), { status: /^(completed|failed)$/ }, `${body.model} finishes`);
  return objects;
}

const [sora, ...others] = demoVideoRequests;

t.test('the sr family’s videos match VideoResource from queued to completed, remixed or failed', async (t) => {
  const made = await lifecycle(t, sora!.body);
  const remixed = await lifecycle(t, { model: 'sr-2', prompt: 'the same boat, at night', remix_from_video_id: String(made[0]!.id) });
  t.match(remixed[0], { remixed_from_video_id: made[0]!.id });
  upstreams.openai.fake.next(videoBehaviours.moderationBlocked());
  const failed = await lifecycle(t, { model: 'sr-2', prompt: 'something the upstream refuses' });
  t.match(failed.at(-1), { status: 'failed', error: { code: String, message: String } });
  assertOpenAiSchema(t, 'VideoResource', [...made, ...remixed, ...failed], { what: 'sr video objects' });
});

t.test('the other families’ videos match VideoResource, with size their pixel size or resolution tier', async (t) => {
  const objects: Array<Record<string, unknown>> = [];
  for (const { family, body } of others) {
    const seen = await lifecycle(t, body);
    t.ok(
      seen.every((object) => typeof object.size === 'string' && typeof object.seconds === 'string'),
      `${family}: every object has its size and seconds`,
    );
    objects.push(...seen);
  }
  t.ok(objects.some((object) => object.size === '1080p'), 'a resolution tier among them (vo’s default 1080p)');
  assertOpenAiSchema(t, 'VideoResource', objects, { what: 'video objects of vo, wn, hx, dsx and sdx', allow: [allowances.videoSizeOfOtherFamilies] });
});
