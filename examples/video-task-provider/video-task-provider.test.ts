// What a plugin author writes: the conformance suite against the plugin and its recorded task lifecycle.
import t from 'tap';
import { runConformance } from 'model-gateway/testing';
import { startTaskUpstream } from './recorded-upstream.js';

t.test('the video task provider passes the conformance suite against its recorded task lifecycle', async (t) => {
  const upstream = await startTaskUpstream();
  t.teardown(() => upstream.close());

  const report = await runConformance({
    plugin: new URL('./index.ts', import.meta.url),
    options: { watermark: true },
    invalidOptions: [{ watermark: 'yes' }, { region: 'cn' }],
    upstream,
    cases: {
      'video.submit': { model: 'acme-t2v', request: { model: 'acme-t2v', prompt: 'a kitten running under the moon', seconds: '10', size: '1280x720' } },
      'video.status': { model: 'acme-t2v' },
    },
  });
  for (const check of report.checks) t.ok(check.passed, check.name, { message: check.message });
  const submitted = upstream.requests.find((request) => request.method === 'POST');
  t.match(submitted, { headers: { 'x-dashscope-async': 'enable' }, json: { model: 'acme-t2v', input: { prompt: 'a kitten running under the moon' }, parameters: { size: '1280*720', duration: 10, watermark: true } } }, 'the task is submitted in the upstream format');
  t.ok(upstream.requests.some((request) => request.path === '/api/v1/tasks/0385dc79-5ff8-4d82-bcb6-xxxxxx'), 'its status is asked by the handle the submission answered');
});
