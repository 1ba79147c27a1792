import type { StoreBackend } from '../core/store/store-backend.js';
import type { TokenRepository } from '../core/tokens/token-repository.js';
import type { UserRepository } from '../core/users/user-repository.js';
import type { KeyCipher } from '../core/security/key-cipher.js';

const checkKey = 'encryption-key-check';
/** The first instance to take this claim writes the check value on a store that has none. */
const writerClaim = 'encryption-key-check-writer';
const claimMilliseconds = 10 * 365 * 24 * 3_600_000;
/** How long an instance that lost the claim waits for the winner's check value. */
const waitForWriterMilliseconds = 2000;

const mismatch = () =>
  new Error(
    'security.encryption_key is not the key this store was written with: stored API keys would not open and every client would be refused. ' +
      'Use the same encryption_key on every instance that shares the store (and the one this store was created with).',
  );

/** One sealed API key from the store, if any token exists: the proof a store without a check value can still give. */
async function anySealedKey(users: UserRepository, tokens: TokenRepository): Promise<string | undefined> {
  for (const userId of await users.ids()) {
    for (const tokenId of await tokens.idsOfUser(userId)) {
      const token = await tokens.get(tokenId);
      if (token !== undefined) return token.sealed_key;
    }
  }
  return undefined;
}

function opens(cipher: KeyCipher, sealed: string): boolean {
  try {
    cipher.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses to start on a store whose data was sealed with another `security.encryption_key`.
 * Every instance sharing a store must use the same key (other gateways' users learned this
 * as silent 401s: reference/landscape.md §3.21): with a different one, no stored API key
 * opens and every client would be refused as if its key were wrong. The store keeps a
 * check value, an HMAC of a fixed text under the key. A store without one (new, or written
 * before the check existed) gets it from the first instance to claim the writing, and only
 * after a stored API key, if there is one, opened with this key; instances starting at the
 * same time wait for that value and compare.
 */
export async function checkEncryptionKey(backend: StoreBackend, cipher: KeyCipher, users: UserRepository, tokens: TokenRepository): Promise<void> {
  const store = backend.keyv<string>('security');
  const expected = cipher.lookupHash('model-gateway encryption key check');
  let stored = await store.get(checkKey);
  if (stored === undefined || stored === null) {
    const claim = await backend.hitWindow(writerClaim, claimMilliseconds);
    const until = Date.now() + (claim.count === 1 ? 0 : waitForWriterMilliseconds);
    while ((stored === undefined || stored === null) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await store.get(checkKey);
    }
    // The first to claim writes; so does a later one whose writer never did (it stopped first).
    if (stored === undefined || stored === null) {
      const sealed = await anySealedKey(users, tokens);
      if (sealed !== undefined && !opens(cipher, sealed)) throw mismatch();
      await store.set(checkKey, expected);
      return;
    }
  }
  if (stored !== expected) throw mismatch();
}
