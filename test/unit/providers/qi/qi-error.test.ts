import t from 'tap';
import {
  describeDashScopeError as describeQiError,
  isDashScopeModerationCode as isQiBlockedCode,
  readDashScopeErrorBody as readQiErrorBody,
} from '../../../../providers/shared/dashscope/dashscope-api-errors.js';
import { qiStatusError } from '../../../../providers/qi/from-qi-response.js';
import { qiFixture } from './fixtures/read-qi-fixture.js';

const recorded = qiFixture('error');
const text = (body: unknown) => JSON.stringify(body);

t.test('the recorded 400 is the client’s mistake, passed on with DashScope’s message and code', async (t) => {
  const error = qiStatusError(400, text(recorded));
  t.match(error, { statusCode: 400, code: 'upstream_invalid_request', retryable: false });
  t.equal(error.message, 'num_images_per_prompt must be 1 (InvalidParameter)');
});

t.test('moderation codes are 400 prompt_blocked, never retried', async (t) => {
  for (const code of ['DataInspectionFailed', 'IPInfringementSuspect', 'CustomRoleBlocked', 'data_inspection_failed']) {
    const error = qiStatusError(400, text({ ...recorded, code, message: 'Input data may contain inappropriate content.' }));
    t.match(error, { statusCode: 400, code: 'prompt_blocked', retryable: false }, code);
    t.match(error.message, /safety filter blocked the request: Input data may contain inappropriate content\. \(.+\); change the prompt or the image/);
  }
  t.notOk(isQiBlockedCode('InvalidParameter'));
});

t.test('other statuses are judged like any upstream answer', async (t) => {
  t.match(qiStatusError(500, text({ ...recorded, code: 'InternalError', message: 'boom' })), { statusCode: 502, code: 'upstream_error', retryable: true });
  t.match(qiStatusError(401, text({ ...recorded, code: 'InvalidApiKey', message: 'Invalid API-key provided.' })), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  const limited = qiStatusError(429, text({ ...recorded, code: 'Throttling' }), 4);
  t.match(limited, { statusCode: 429, retryable: true, headers: { 'retry-after': '4' } });
  t.match(qiStatusError(503, '<html>down</html>'), { statusCode: 502, message: /HTTP 503/ });
});

t.test('describeQiError and readQiErrorBody read only error bodies', async (t) => {
  t.equal(describeQiError({ code: 'InvalidURL', message: 'Invalid URL provided in your request.' }), 'Invalid URL provided in your request. (InvalidURL)');
  t.equal(describeQiError({ code: 'InternalError' }), 'InternalError');
  t.equal(describeQiError({}), undefined);
  t.match(readQiErrorBody(text(recorded)), { code: 'InvalidParameter' });
  t.equal(readQiErrorBody(text(qiFixture('qwen_image_plus_legacy'))), undefined);
  t.equal(readQiErrorBody('not json'), undefined);
});
