import t from 'tap';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { formatError, inDialect } from '../../../plugins/errors/error-dialects.js';

const presented = (error: GatewayError) => {
  const shown = inDialect('images', error);
  return { status: shown.statusCode, code: shown.code, headers: shown.headers, body: formatError('images', shown) };
};

t.test('the image routes answer with the statuses and codes of the spec errors table', async (t) => {
  const rows: Array<[GatewayError, number, string]> = [
    [new GatewayError(400, 'prompt_blocked', 'blocked by the safety filter'), 400, 'prompt_blocked'],
    [new GatewayError(400, 'invalid_request', 'size: expected one of'), 400, 'invalid_request'],
    [new GatewayError(404, 'model_not_found', 'no channel serves model "x"'), 400, 'invalid_request'],
    [new GatewayError(400, 'unsupported_media_type', 'the media is image/bmp'), 400, 'invalid_request'],
    [new GatewayError(401, 'invalid_api_key', 'invalid key'), 401, 'invalid_authentication'],
    [new GatewayError(402, 'insufficient_quota', 'not enough quota'), 402, 'insufficient_quota'],
    [new GatewayError(429, 'upstream_rate_limited', 'slow down', { headers: { 'retry-after': '7' } }), 429, 'rate_limit_exceeded'],
    [new GatewayError(502, 'empty_response', 'no image'), 502, 'empty_response'],
    [new GatewayError(502, 'upstream_error', 'the upstream failed (HTTP 500)'), 503, 'bad_response'],
    [new GatewayError(503, 'no_available_channel', 'cooling down'), 503, 'bad_response'],
    [new GatewayError(504, 'upstream_timeout', 'timed out'), 504, 'request_timeout'],
  ];
  for (const [error, status, code] of rows) {
    const shown = presented(error);
    t.equal(shown.status, status, `${error.code} → ${status}`);
    t.strictSame(shown.body, { error: { message: error.message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code } }, `${error.code} body`);
  }
});

t.test('a 429 keeps the upstream Retry-After, and gets one when the upstream gave none', async (t) => {
  t.equal(presented(new GatewayError(429, 'upstream_rate_limited', 'x', { headers: { 'retry-after': '7' } })).headers['retry-after'], '7');
  t.equal(presented(new GatewayError(429, 'upstream_rate_limited', 'x')).headers['retry-after'], '1');
});

t.test('other dialects present an error unchanged', async (t) => {
  const error = new GatewayError(502, 'upstream_error', 'x');
  t.equal(inDialect('openai', error), error);
});
