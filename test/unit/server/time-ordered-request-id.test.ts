import t from 'tap';
import { timeOrderedRequestId } from '../../../server/time-ordered-request-id.js';

const uuidVersion7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('a new request id is a version 7 UUID that starts with the millisecond it was made', async (t) => {
  const id = timeOrderedRequestId(Date.UTC(2026, 11, 2, 15, 30));
  t.match(id, uuidVersion7);
  t.equal(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16), Date.UTC(2026, 11, 2, 15, 30));
});

t.test('request ids made later sort after earlier ones, and two made in the same millisecond differ', async (t) => {
  const earlier = timeOrderedRequestId(1_764_689_400_000);
  const later = timeOrderedRequestId(1_764_689_400_001);
  t.ok(earlier < later, `${earlier} sorts before ${later}`);
  t.not(timeOrderedRequestId(1_764_689_400_000), timeOrderedRequestId(1_764_689_400_000));
});
