import t from 'tap';
import { timeOrderedRequestId } from '../../../server/time-ordered-request-id.js';

const versionSevenUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('a request id is a version 7 UUID whose first 48 bits are the time in milliseconds', async (t) => {
  const id = timeOrderedRequestId(Date.UTC(2026, 11, 2, 15, 0, 0));
  t.match(id, versionSevenUuid);
  t.equal(Number.parseInt(id.replace('-', '').slice(0, 12), 16), Date.UTC(2026, 11, 2, 15, 0, 0));
});

t.test('request ids made later sort after earlier ones, and two of the same millisecond differ', async (t) => {
  const earlier = timeOrderedRequestId(1_764_687_600_000);
  const later = timeOrderedRequestId(1_764_687_600_001);
  t.ok(earlier < later, `${earlier} sorts before ${later}`);
  t.not(timeOrderedRequestId(1_764_687_600_000), timeOrderedRequestId(1_764_687_600_000));
});
