import t from 'tap';
import { constantTimeEquals, KeyCipher } from '../../../core/security/key-cipher.js';
import { randomAlphanumeric } from '../../../core/security/random-string.js';
import { deriveSecretKeys } from '../../../core/security/secret-keys.js';

const cipher = new KeyCipher(deriveSecretKeys('a-secret-of-at-least-thirty-two-characters'));

t.test('a sealed key opens to the same key and never contains it', async (t) => {
  const key = randomAlphanumeric(48);
  const sealed = cipher.encrypt(key);
  t.notMatch(sealed, key);
  t.equal(cipher.decrypt(sealed), key);
  t.not(cipher.encrypt(key), sealed, 'each sealing uses a fresh IV');
});

t.test('a tampered or foreign sealed key is refused', async (t) => {
  const sealed = cipher.encrypt('x'.repeat(48));
  const parts = sealed.split('.');
  const tampered = [parts[0], parts[1], parts[2], Buffer.from('y'.repeat(48)).toString('base64url')].join('.');
  t.throws(() => cipher.decrypt(tampered));
  const other = new KeyCipher(deriveSecretKeys('another-secret-of-at-least-thirty-two-chars'));
  t.throws(() => other.decrypt(sealed));
});

t.test('the lookup hash is stable for a key and differs between secrets', async (t) => {
  const other = new KeyCipher(deriveSecretKeys('another-secret-of-at-least-thirty-two-chars'));
  t.equal(cipher.lookupHash('k'), cipher.lookupHash('k'));
  t.not(cipher.lookupHash('k'), other.lookupHash('k'));
  t.match(cipher.lookupHash('k'), /^[0-9a-f]{64}$/);
});

t.test('generated keys are 48 characters from [0-9A-Za-z]', async (t) => {
  const keys = Array.from({ length: 200 }, () => randomAlphanumeric(48));
  for (const key of keys) t.match(key, /^[0-9A-Za-z]{48}$/);
  t.equal(new Set(keys).size, keys.length);
});

t.test('constant-time comparison tells equal strings from different ones', async (t) => {
  t.ok(constantTimeEquals('abc', 'abc'));
  t.notOk(constantTimeEquals('abc', 'abd'));
  t.notOk(constantTimeEquals('abc', 'abcd'));
});
