import t from 'tap';
import { nativeGenerateRequestSchema } from '../../../../core/contracts/native-requests.js';
import { toGxNativeRequest } from '../../../../providers/gx/native/gx-native-operations.js';
import { fixtureJson } from './fixtures/read-gx-fixtures.js';

/** The recorded request body of the thinking-budget recording, as a native client would send it. */
const recordedRequest = () =>
  nativeGenerateRequestSchema.parse(fixtureJson<{ request: { body: unknown } }>('gemini-stream-chunks-thinking-budget.json').request.body);

t.test('a native request without a suffix is forwarded as it is', async (t) => {
  const request = recordedRequest();
  const result = toGxNativeRequest(request, 'gx-2.5-flash');
  t.equal(result.model, 'gx-2.5-flash');
  t.equal(result.body, request);
});

t.test('a thinking suffix comes off the model and becomes the thinkingConfig the client did not set', async (t) => {
  const request = recordedRequest();
  delete (request.generationConfig as Record<string, unknown>).thinkingConfig;
  const result = toGxNativeRequest(request, 'gx-2.5-flash-thinking-1024');
  t.equal(result.model, 'gx-2.5-flash');
  t.strictSame(result.body.generationConfig, { candidateCount: 1, maxOutputTokens: 200, thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } });
  t.notOk('thinkingConfig' in (request.generationConfig as Record<string, unknown>), 'the client body is not changed');
});

t.test('the client’s own thinkingConfig wins over the suffix', async (t) => {
  const result = toGxNativeRequest(recordedRequest(), 'gx-2.5-flash-nothinking');
  t.equal(result.model, 'gx-2.5-flash');
  t.strictSame((result.body.generationConfig as Record<string, unknown>).thinkingConfig, { thinkingBudget: 50 });
});

t.test('a native request without generationConfig gets one for the suffix', async (t) => {
  const request = nativeGenerateRequestSchema.parse({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  t.strictSame(toGxNativeRequest(request, 'gx-3-pro-preview-thinking-low').body.generationConfig, { thinkingConfig: { includeThoughts: true, thinkingLevel: 'LOW' } });
});
