import t from 'tap';
import { estimateDsxTokens, estimateDsxUsage, readDsxSubmission } from '../../../../providers/dsx/dsx-submission.js';
import { dsxFixture } from './fixtures/read-dsx-fixtures.js';

const recorded = dsxFixture('ark-seedance-task-succeeded.json');

t.test('the token estimate matches the recorded task: 720p 16:9 for 5 s', async (t) => {
  t.equal(estimateDsxTokens(recorded.resolution, recorded.duration), recorded.usage.completion_tokens);
  t.equal(estimateDsxTokens('480p', 0, 121), Math.ceil((864 * 480 * 121) / 1024), 'frames count as they are');
});

t.test('the usage bills the seconds at the resolution, and the tokens Ark will report', async (t) => {
  t.strictSame(estimateDsxUsage(readDsxSubmission({ model: 'dsx-1-0-pro-250528', prompt: 'a --rs 1080p --dur 10' } as never)), {
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: estimateDsxTokens('1080p', 10),
    reasoningTokens: 0,
    outputModalities: { video: estimateDsxTokens('1080p', 10) },
    seconds: 10,
    resolution: '1080p',
    source: 'estimated',
  });
  t.match(estimateDsxUsage(readDsxSubmission({ model: 'dsx-1-5-pro-251215', prompt: 'a --frames 29' } as never)), { seconds: 29 / 24, resolution: '720p' });
  t.match(estimateDsxUsage(readDsxSubmission({ model: 'sdx-2-0', prompt: 'a' } as never)), { seconds: 5, resolution: '720p' }, 'the spec defaults');
});
