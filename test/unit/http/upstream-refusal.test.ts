import t from 'tap';
import { isChannelTrouble, upstreamRefusal } from '../../../core/http/upstream-error.js';

t.test('the channel’s own trouble fails over; any other 4xx refuses the request itself', async (t) => {
  for (const status of [401, 403, 404, 408, 429, 500, 503, 302]) t.ok(isChannelTrouble(status), String(status));
  for (const status of [400, 409, 413, 422]) t.notOk(isChannelTrouble(status), String(status));
});

t.test('an upstream refusal is a 502 with the upstream’s code and field, not retried, secrets redacted', async (t) => {
  const refusal = upstreamRefusal('InvalidParameter', 'bad size for key sk-abcdefghijklmnopqrstuvwxyz123456', { param: 'size' });
  t.match(refusal, { statusCode: 502, code: 'InvalidParameter', param: 'size', retryable: false });
  t.notMatch(refusal.message, /sk-abcdefghijklmnopqrstuvwxyz123456/);
  t.match(upstreamRefusal(undefined, 'no', { param: null, retryable: true }), { code: 'upstream_invalid_request', param: undefined, retryable: true });
});
