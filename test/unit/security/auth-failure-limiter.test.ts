import t from 'tap';
import { unauthorized } from '../../../core/errors/error-codes.js';
import { AuthFailureLimiter } from '../../../core/security/auth-failure-limiter.js';
import { MemoryStoreBackend } from '../../../core/store/memory-store-backend.js';

// A lock is kept in this process's memory until its window resets. Every request of every
// client reads that memory before its key is checked, parsing its address as soon as one
// lock is held (3 µs for IPv4, 11 µs for IPv6), so locks that have all ended must be gone.

t.test('once every lock has ended, the limiter holds no locked address, however many an attack left', async (t) => {
  let now = 1_000_000;
  const limiter = new AuthFailureLimiter({ max_per_address: 1, max_per_key_prefix: 0, window_ms: 1000 }, new MemoryStoreBackend(), { now: () => now });
  const wrong = unauthorized('invalid API key: no token has this key');
  const codes = new Set<string>();
  for (let index = 0; index < 500; index += 1) {
    const address = `203.0.${index >> 8}.${index & 255}`;
    await limiter.countFailure(wrong, address, 'api-key:abcd');
    codes.add((await limiter.countFailure(wrong, address, 'api-key:abcd')).code);
  }
  t.same([...codes], ['too_many_auth_failures'], 'the second failure from each address is refused');
  t.equal(limiter.lockedNetworks, 500, 'each attacking address is locked');
  t.throws(() => limiter.refuseLockedAddress('203.0.0.7'), { code: 'too_many_auth_failures' }, 'a locked address is refused while its lock lasts');

  now += 1001;
  t.doesNotThrow(() => limiter.refuseLockedAddress('198.51.100.4'), 'another address passes');
  t.equal(limiter.lockedNetworks, 0, 'no lock is held once every window has reset');
  t.doesNotThrow(() => limiter.refuseLockedAddress('203.0.1.200'), 'a formerly locked address passes');
});
