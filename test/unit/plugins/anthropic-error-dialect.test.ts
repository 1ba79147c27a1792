import t from 'tap';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { formatError } from '../../../plugins/errors/error-dialects.js';
import { messagesStreamEncoder } from '../../../plugins/messages/messages-stream-encoder.js';

t.test("the Messages routes answer errors in Anthropic's shape, typed by status", async (t) => {
  const rows: Array<[GatewayError, string]> = [
    [new GatewayError(400, 'invalid_request', 'max_tokens: required'), 'invalid_request_error'],
    [new GatewayError(401, 'invalid_api_key', 'invalid key'), 'authentication_error'],
    [new GatewayError(402, 'insufficient_quota', 'not enough quota'), 'billing_error'],
    [new GatewayError(403, 'model_not_allowed', 'this API key may not use model "x"'), 'permission_error'],
    [new GatewayError(404, 'model_not_found', 'no channel serves model "x"'), 'not_found_error'],
    [new GatewayError(413, 'body_too_large', 'the body is over 10 MB'), 'request_too_large'],
    [new GatewayError(415, 'unsupported_media_type', 'send application/json'), 'invalid_request_error'],
    [new GatewayError(429, 'upstream_rate_limited', 'slow down'), 'rate_limit_error'],
    [new GatewayError(500, 'internal_error', 'failed'), 'api_error'],
    [new GatewayError(502, 'upstream_error', 'the upstream failed (HTTP 500)'), 'api_error'],
    [new GatewayError(503, 'no_available_channel', 'every channel cools down'), 'overloaded_error'],
    [new GatewayError(504, 'upstream_timeout', 'timed out'), 'timeout_error'],
  ];
  for (const [error, type] of rows) {
    t.strictSame(formatError('anthropic', error), { type: 'error', error: { type, message: error.message } }, `${error.statusCode} ${error.code}`);
  }
});

t.test('a Messages stream writes named events, pings while idle, and ends in an error event', async (t) => {
  const output = { type: 'event' as const, event: 'message_stop', data: '{"type":"message_stop"}', content: false };
  t.equal(messagesStreamEncoder.event(output), 'event: message_stop\ndata: {"type":"message_stop"}\n\n');
  t.equal(messagesStreamEncoder.keepalive, 'event: ping\ndata: {"type":"ping"}\n\n');
  t.equal(
    messagesStreamEncoder.error(new GatewayError(502, 'upstream_stream_truncated', 'the upstream stream ended early')),
    'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"the upstream stream ended early"}}\n\n',
  );
  t.match(messagesStreamEncoder.contentType, /^text\/event-stream/);
});
