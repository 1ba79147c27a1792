import t from 'tap';
import { describeGoogleErrorText } from '../../../../providers/shared/google-api/google-api-errors.js';
import { voSubmitError } from '../../../../providers/vo/vo-error.js';
import { voFixture } from './fixtures/read-vo-fixture.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

const answer = upstreamAnswer;

const invalidKey = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
  },
};

t.test('a refusal of the request is a 502 with the upstream status as code and the field it names as param, not retried', async (t) => {
  const error = await voSubmitError(answer(400, { error: { code: 400, message: "`negativePrompt` isn't supported by this model.", status: 'INVALID_ARGUMENT' } }));
  t.match(error, { statusCode: 502, code: 'INVALID_ARGUMENT', param: 'negativePrompt', retryable: false, message: /isn't supported by this model/ });
  const violation = await voSubmitError(
    answer(400, {
      error: { code: 400, message: 'Invalid value.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'parameters.durationSeconds', description: 'x' }] }] },
    }),
  );
  t.match(violation, { code: 'INVALID_ARGUMENT', param: 'durationSeconds' }, 'a field violation names the client field');
  t.match(await voSubmitError(answer(400, { error: { code: 400, message: '`storageUri` is odd.', status: 'OUT_OF_RANGE' } })), { code: 'OUT_OF_RANGE', param: 'storageUri' }, 'other fields as the upstream wrote them');
  t.match(await voSubmitError(answer(400, { error: { code: 400, message: 'Bad.', status: 'INVALID_ARGUMENT' } })), { param: undefined });
  t.match(await voSubmitError(answer(400, 'not json')), { statusCode: 502, code: 'upstream_invalid_request', retryable: false });
});

t.test("the channel's own trouble is retryable: a refused key, a failed precondition, 403, 429 with its delay, 5xx", async (t) => {
  t.match(await voSubmitError(answer(400, invalidKey)), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  t.match(await voSubmitError(answer(400, { error: { code: 400, message: 'User location is not supported for the API use.', status: 'FAILED_PRECONDITION' } })), {
    statusCode: 502,
    code: 'FAILED_PRECONDITION',
    retryable: true,
  });
  const serviceDisabled = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'SERVICE_DISABLED', domain: 'googleapis.com' }];
  t.match(await voSubmitError(answer(403, { error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED', details: serviceDisabled } })), { code: 'upstream_auth_failed', retryable: true, fault: 'channel' });
  t.match(
    await voSubmitError(answer(403, { error: { code: 403, message: 'You do not have permission to access the File f1 or it may not exist.', status: 'PERMISSION_DENIED' } })),
    { statusCode: 403, code: 'upstream_invalid_request', retryable: true, fault: 'request' },
    'a 403 without a reason is about what the request names: not the channel’s',
  );
  const limited = await voSubmitError(answer(429, voFixture('gemini-error-429.json')));
  t.match(limited, { statusCode: 429, retryable: true, message: /You exceeded your current quota/ });
  t.equal(limited.headers['retry-after'], '35', 'RetryInfo 34.4s, rounded up');
  t.match(await voSubmitError(answer(503, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })), { statusCode: 502, code: 'upstream_error', retryable: true });
});

t.test('describeGoogleErrorText gives the message and status for core, and nothing for other bodies', async (t) => {
  t.equal(describeGoogleErrorText(JSON.stringify(voFixture('gemini-error-429.json'))), 'You exceeded your current quota, please check your plan. (RESOURCE_EXHAUSTED)');
  t.equal(describeGoogleErrorText('<html>'), undefined);
  t.equal(describeGoogleErrorText(JSON.stringify({ error: { status: 'NOT_FOUND' } })), 'NOT_FOUND');
});
