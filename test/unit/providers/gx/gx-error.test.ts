import t from 'tap';
import { invalidApiKeyBody } from '../../../fakes/gx/gx-error-body.js';
import { describeGoogleErrorText, googleKeyRefused, readGoogleErrorText } from '../../../../providers/shared/google-api/google-api-errors.js';
import { gxErrorToGatewayError } from '../../../../providers/gx/gx-error.js';
import { fixtureBytes } from './fixtures/read-gx-fixtures.js';

t.test('the recorded 429 body is described by its message and status', async (t) => {
  t.equal(describeGoogleErrorText(fixtureBytes('gemini-error-429.json').toString('utf8')), 'You exceeded your current quota, please check your plan. (RESOURCE_EXHAUSTED)');
  t.equal(describeGoogleErrorText('<html>bad gateway</html>'), undefined);
  t.equal(describeGoogleErrorText('{"unexpected": true}'), undefined);
});

t.test('429 and 5xx upstream errors are retryable, with the usual gateway statuses', async (t) => {
  t.match(gxErrorToGatewayError({ code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' }), { statusCode: 429, code: 'upstream_rate_limited', retryable: true, headers: {} });
  t.match(gxErrorToGatewayError({ code: 500, message: 'boom', status: 'INTERNAL' }), { statusCode: 502, code: 'upstream_error', retryable: true });
  t.match(gxErrorToGatewayError({ code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' }), { statusCode: 502, retryable: true, message: /overloaded/ });
  t.match(gxErrorToGatewayError({ code: 504, message: 'late', status: 'DEADLINE_EXCEEDED' }), { statusCode: 504, code: 'upstream_timeout', retryable: true });
});

t.test('a 400 is the client’s mistake, passed back and not retried', async (t) => {
  t.match(gxErrorToGatewayError({ code: 400, message: 'Invalid value at contents', status: 'INVALID_ARGUMENT' }), {
    statusCode: 400,
    code: 'upstream_invalid_request',
    retryable: false,
    message: 'Invalid value at contents',
  });
});

const serviceDisabled = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'SERVICE_DISABLED', domain: 'googleapis.com' }];

t.test('the channel’s own auth failures and unknown models may succeed elsewhere', async (t) => {
  t.match(gxErrorToGatewayError({ code: 403, message: 'denied', status: 'PERMISSION_DENIED', details: serviceDisabled }), { statusCode: 502, code: 'upstream_auth_failed', retryable: true, fault: 'channel' });
  t.match(gxErrorToGatewayError({ code: 404, message: 'no such model', status: 'NOT_FOUND' }), { statusCode: 404, code: 'model_not_found', retryable: true, fault: 'request' }, 'an unknown model is the request’s');
});

t.test('a 403 about something the request names (no ErrorInfo reason) is tried elsewhere but is the request’s, in the upstream’s words', async (t) => {
  const denied = { code: 403, message: 'You do not have permission to access the File abc123 or it may not exist.', status: 'PERMISSION_DENIED' };
  t.match(gxErrorToGatewayError(denied), { statusCode: 403, code: 'upstream_invalid_request', retryable: true, fault: 'request', message: /access the File abc123/ });
});

t.test('an error without a numeric code is classified by its status name', async (t) => {
  t.match(gxErrorToGatewayError({ status: 'RESOURCE_EXHAUSTED', message: 'quota' }), { statusCode: 429, retryable: true });
  t.match(gxErrorToGatewayError({ message: 'something' }), { statusCode: 502, retryable: true });
});

t.test('a 400 whose details say API_KEY_INVALID is the channel’s refused key: an auth failure another channel may not have', async (t) => {
  // The body upstreams.md §1.10 gives for a wrong key, as the fake gx upstream sends it.
  const body = invalidApiKeyBody();
  t.equal(googleKeyRefused(readGoogleErrorText(JSON.stringify(body))!), true);
  t.match(gxErrorToGatewayError(body.error), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  t.equal(googleKeyRefused(readGoogleErrorText(JSON.stringify({ error: { code: 400, message: 'Invalid value at contents', status: 'INVALID_ARGUMENT' } }))!), false, 'other 400s stay the client’s');
});
