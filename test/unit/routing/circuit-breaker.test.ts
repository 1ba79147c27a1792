import t from 'tap';
import { CircuitBreaker } from '../../../core/routing/circuit-breaker.js';

const clock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (milliseconds: number) => (now += milliseconds) };
};

t.test('a channel stays closed until failures in a row reach the threshold', async (t) => {
  const time = clock();
  const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMilliseconds: 1000 }, time.now);
  breaker.recordFailure('a');
  breaker.recordFailure('a');
  t.ok(breaker.tryAcquire('a'));
  breaker.recordSuccess('a');
  breaker.recordFailure('a');
  breaker.recordFailure('a');
  t.ok(breaker.tryAcquire('a'), 'a success in between resets the count');
  breaker.recordFailure('a');
  t.notOk(breaker.tryAcquire('a'), 'the third failure in a row opens the circuit');
  t.equal(breaker.stateOf('a'), 'open');
  t.equal(breaker.retryInMilliseconds('a'), 1000);
});

t.test('after the cool-down one probe passes; its success closes the circuit', async (t) => {
  const time = clock();
  const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMilliseconds: 1000 }, time.now);
  breaker.recordFailure('a');
  t.notOk(breaker.tryAcquire('a'));
  time.advance(1000);
  t.equal(breaker.stateOf('a'), 'half-open');
  t.ok(breaker.tryAcquire('a'), 'the probe');
  t.notOk(breaker.tryAcquire('a'), 'no second call while the probe is out');
  breaker.recordSuccess('a');
  t.ok(breaker.tryAcquire('a'));
  t.equal(breaker.stateOf('a'), 'closed');
});

t.test('a failed probe opens the circuit for another cool-down', async (t) => {
  const time = clock();
  const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMilliseconds: 1000 }, time.now);
  breaker.recordFailure('a');
  time.advance(1000);
  t.ok(breaker.tryAcquire('a'));
  breaker.recordFailure('a');
  t.notOk(breaker.tryAcquire('a'));
  time.advance(999);
  t.notOk(breaker.tryAcquire('a'));
  time.advance(1);
  t.ok(breaker.tryAcquire('a'));
});

t.test('a probe that ends without an outcome frees the half-open slot', async (t) => {
  const time = clock();
  const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMilliseconds: 10 }, time.now);
  breaker.recordFailure('a');
  time.advance(10);
  t.ok(breaker.tryAcquire('a'));
  breaker.release('a');
  t.ok(breaker.tryAcquire('a'));
});

t.test('channels have separate circuits', async (t) => {
  const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMilliseconds: 1000 });
  breaker.recordFailure('a');
  t.notOk(breaker.tryAcquire('a'));
  t.ok(breaker.tryAcquire('b'));
});
