import t from 'tap';
import { describeGpError, gpErrorToGatewayError, readGpError } from '../../../../providers/gp/gp-error.js';

t.test("describeGpError reads OpenAI's error body", async (t) => {
  const body = JSON.stringify({ error: { message: 'Unsupported parameter: temperature', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_parameter' } });
  t.equal(describeGpError(body), 'Unsupported parameter: temperature (invalid_request_error, unsupported_parameter)');
  t.equal(describeGpError(JSON.stringify({ error: { message: null, type: 'server_error', param: null, code: null } })), 'server_error');
  t.equal(describeGpError('<html>bad gateway</html>'), undefined);
  t.equal(describeGpError('{"detail":"nope"}'), undefined);
});

t.test('an in-band error is judged by its type and code', async (t) => {
  t.match(gpErrorToGatewayError({ message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' }), { statusCode: 429, retryable: true });
  t.match(gpErrorToGatewayError({ message: 'no money', type: 'insufficient_quota', code: 'insufficient_quota' }), { statusCode: 429, retryable: true });
  t.match(gpErrorToGatewayError({ message: 'bad', type: 'invalid_request_error', code: null }), { statusCode: 400, retryable: false });
  t.match(gpErrorToGatewayError({ message: 'which model', type: 'invalid_request_error', code: 'model_not_found' }), { statusCode: 404, retryable: true });
  t.match(gpErrorToGatewayError({ message: 'broken' }), { statusCode: 502, retryable: true });
});

t.test('readGpError finds error bodies only', async (t) => {
  t.match(readGpError({ error: { message: 'x', type: 'server_error' } }), { message: 'x' });
  t.match(readGpError({ error: 'plain text' }), { message: 'plain text' });
  t.equal(readGpError({ id: 'chatcmpl-1', choices: [] }), undefined);
  t.equal(readGpError({ error: null }), undefined);
});
