import type { StoreBackend } from '../store/store-backend.js';
import type { KeyCipher } from './key-cipher.js';

const checkKey = 'encryption-key-check';

/**
 * Refuses to start on a store whose data was sealed with another `security.encryption_key`.
 * Every instance sharing a store must use the same key (other gateways' users learned this
 * as silent 401s: reference/landscape.md §3.21): with a different one, no stored API key
 * opens and every client would be refused as if its key were wrong. The store keeps a
 * check value, an HMAC of a fixed text under the key; the first start writes it, and each
 * later start compares.
 */
export async function checkEncryptionKey(backend: StoreBackend, cipher: KeyCipher): Promise<void> {
  const store = backend.keyv<string>('security');
  const expected = cipher.lookupHash('model-gateway encryption key check');
  const stored = await store.get(checkKey);
  if (stored === undefined || stored === null) {
    await store.set(checkKey, expected);
    return;
  }
  if (stored !== expected) {
    throw new Error(
      'security.encryption_key is not the key this store was written with: stored API keys would not open and every client would be refused. ' +
        'Use the same encryption_key on every instance that shares the store (and the one this store was created with).',
    );
  }
}
