import t from 'tap';
import { GatewayError } from '../../../core/index.js';
import { readJsonFrame } from '../../../core/streaming/read-json-frame.js';

const inBand = (json: unknown) => (typeof json === 'object' && json !== null && 'error' in json ? new GatewayError(429, 'upstream_rate_limited', 'slow down') : undefined);

t.test('a frame is blank, [DONE], JSON, or the error it carries', async (t) => {
  t.strictSame(readJsonFrame({ data: '  ' }, 'a chunk', inBand), { kind: 'blank' });
  t.strictSame(readJsonFrame({ data: '[DONE]' }, 'a chunk', inBand), { kind: 'done' });
  t.strictSame(readJsonFrame({ data: '{"a":1}' }, 'a chunk', inBand), { kind: 'json', json: { a: 1 } });
  const inBandError = readJsonFrame({ data: '{"error":{}}' }, 'a chunk', inBand);
  t.match(inBandError, { kind: 'error', error: { statusCode: 429, code: 'upstream_rate_limited' } });
  const broken = readJsonFrame({ data: '{"a":' }, 'a chunk', inBand);
  t.match(broken, { kind: 'error', error: { statusCode: 502, code: 'upstream_invalid_response', message: /not a chunk/ } });
});
