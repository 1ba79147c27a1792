import t from 'tap';
import type { ProviderHost, VideoSubmitRequest } from '../../../../core/index.js';
import { dashScopeVideoFamilies, videoFamilyOf } from '../../../../providers/wn-hx/dashscope-video-operations.js';
import { prepareVideoRequest } from '../../../../providers/wn-hx/dashscope-video-operations.js';
import plugin from '../../../../providers/wn-hx/index.js';
import { refusalOf } from '../wn/wn-test-helpers.js';

t.test('the family of a client model id is the one whose name the id starts with', async (t) => {
  t.strictSame(dashScopeVideoFamilies.map((family) => family.name), ['wn', 'hx']);
  for (const model of ['wn2.5-t2v-preview', 'wn2.5-i2v-preview', 'wn2.7-t2v-2026-04-25', 'wn2.7-i2v-2026-04-25', 'wn2.7-r2v']) t.equal(videoFamilyOf(model).name, 'wn', model);
  for (const model of ['hx-1.0-t2v', 'hx-1.0-i2v', 'hx-1.0-r2v', 'hx-1.1-t2v']) t.equal(videoFamilyOf(model).name, 'hx', model);
});

t.test('an id of no family is a 400 naming model; an id of a family without rules is refused by that family', async (t) => {
  for (const model of ['wan2.7-t2v', 'happyhorse-1.0-t2v', 'sr-2', 'Wn2.7-t2v', '']) {
    t.match(refusalOf(() => videoFamilyOf(model)), { statusCode: 400, param: 'model', message: /is not a dashscope-video model; .* starting with wn or hx$/ }, JSON.stringify(model));
  }
  const request = (model: string) => ({ model, prompt: 'x', metadata: { input: { prompt: 'x' } } }) as VideoSubmitRequest;
  t.match(refusalOf(() => videoFamilyOf('wn2.5-r2v-preview').readRequest(request('wn2.5-r2v-preview'))), { param: 'model', message: /not a wn video model/ });
  t.match(refusalOf(() => videoFamilyOf('hx-1.0-video-edit').readRequest(request('hx-1.0-video-edit'))), { param: 'model', message: /not an hx video model/ });
});

t.test('each family bills the upstream’s usage only at the tiers its models make', async (t) => {
  t.strictSame(videoFamilyOf('wn2.5-t2v-preview').tiersOf('wn2.5-t2v-preview'), ['480p', '720p', '1080p']);
  t.strictSame(videoFamilyOf('wn2.7-r2v').tiersOf('wn2.7-r2v'), ['720p', '1080p']);
  t.strictSame(videoFamilyOf('hx-1.0-r2v').tiersOf('hx-1.0-r2v'), ['720p', '1080p']);
});

t.test('one wn-hx provider estimates both families, each by its own defaults', async (t) => {
  t.equal(plugin.name, 'wn-hx');
  const options = plugin.options.parse({});
  t.strictSame(options, { path_prefix: '/api/v1' });
  const provider = await plugin.create(options, {} as ProviderHost);
  const estimate = provider.estimate?.['video.submit'];
  t.ok(estimate);
  const estimateOf = (request: VideoSubmitRequest) => estimate!(prepareVideoRequest(request));
  t.match(estimateOf({ model: 'wn2.5-t2v-preview', prompt: 'x' } as VideoSubmitRequest), { seconds: 5, resolution: '720p', source: 'estimated' });
  t.match(estimateOf({ model: 'wn2.7-r2v', metadata: { input: { prompt: 'x', media: [{ type: 'reference_image', url: 'https://e.com/a.png' }] } } } as VideoSubmitRequest), { seconds: 5, resolution: '720p' });
  t.match(estimateOf({ model: 'hx-1.0-t2v', duration: 8, metadata: { input: { prompt: 'x' } } } as VideoSubmitRequest), { seconds: 8, resolution: '1080p' });
  t.match(refusalOf(() => prepareVideoRequest({ model: 'other', prompt: 'x' } as VideoSubmitRequest)), { statusCode: 400, param: 'model' }, 'prepare refuses an id of no family');
  t.strictSame(prepareVideoRequest({ model: 'wn2.5-i2v-preview', prompt: 'x', image: 'https://e.com/a.png' } as VideoSubmitRequest).vendorFetchedUrls, [{ url: 'https://e.com/a.png', field: 'image' }], 'and lists the URLs DashScope will fetch');
  t.strictSame(Object.keys(provider.operations).sort(), ['video.status', 'video.submit']);
});
