import t from 'tap';
import { runConformance, type ConformanceSubject } from '../../core/testing/index.js';
import { startFakeGxUpstream, tinyPngBase64 } from '../fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';

// Every built-in provider against its vendor's fake upstream (test/fakes/), through the same
// suite a third-party author runs (core/testing/conformance/).

const key = 'conformance-key';
const chat = (model: string, fields: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'Say hello.' }], ...fields });
const builtIn = (family: string) => new URL(`../../providers/${family}/index.ts`, import.meta.url);

type Subject = Omit<ConformanceSubject, 'upstream' | 'apiKey'>;

const suites: Array<{ family: string; start: () => Promise<ConformanceSubject['upstream']>; subject: Subject }> = [
  {
    family: 'gp',
    start: () => startFakeOpenAiUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('gp'),
      invalidOptions: [{ path_prefix: 'v1' }, { region: 'eu' }],
      cases: {
        chat: [{ model: 'gp-5.4', request: chat('gp-5.4') }, { model: 'gp-5.4', request: chat('gp-5.4', { stream: true, stream_options: { include_usage: true } }) }],
        responses: [{ model: 'gp-5.4', request: { model: 'gp-5.4', input: 'Say hello.' } }, { model: 'gp-5.4', request: { model: 'gp-5.4', input: 'Say hello.', stream: true } }],
      },
    },
  },
  {
    family: 'gx',
    start: () => startFakeGxUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('gx'),
      invalidOptions: [{ region: 'eu' }],
      cases: {
        chat: [{ model: 'gx-2.5-pro', request: chat('gx-2.5-pro') }, { model: 'gx-2.5-pro', request: chat('gx-2.5-pro', { stream: true }) }],
        'native.generate': [
          { model: 'gx-2.5-pro', request: { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] } },
          { model: 'gx-2.5-pro', request: { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] }, stream: true },
        ],
        'native.embed': { model: 'embed-latest', request: { content: { parts: [{ text: 'hello' }] } } },
        'native.batchEmbed': { model: 'embed-latest', request: { requests: [{ model: 'models/embed-latest', content: { parts: [{ text: 'hello' }] } }] } },
        'images.generate': { model: 'gx-2.5-flash-image', request: { model: 'gx-2.5-flash-image', prompt: 'a cat' } },
        'images.edit': { model: 'gx-2.5-flash-image', request: { model: 'gx-2.5-flash-image', prompt: 'add a party hat', image: `data:image/png;base64,${tinyPngBase64}` } },
      },
    },
  },
];

for (const { family, start, subject } of suites) {
  t.test(`the built-in ${family} provider passes the conformance suite against its vendor's fake`, async (t) => {
    const upstream = await start();
    t.teardown(() => upstream.close());
    const report = await runConformance({ ...subject, upstream, apiKey: key });
    t.same(report.failures, [], `${report.checks.length} checks, none failed`);
  });
}
