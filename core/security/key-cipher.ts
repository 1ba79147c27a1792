import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretKeys } from './secret-keys.js';

/** Encrypts API keys at rest (AES-256-GCM) and computes their lookup HMAC. */
export class KeyCipher {
  readonly #keys: SecretKeys;

  constructor(keys: SecretKeys) {
    this.#keys = keys;
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.encryption, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** Throws when the value was not made by this key (tampered with, or another secret). */
  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('unknown key format');
    const decipher = createDecipheriv('aes-256-gcm', this.#keys.encryption, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The lookup HMAC of a key, hex. */
  lookupHash(key: string): string {
    return createHmac('sha256', this.#keys.lookup).update(key, 'utf8').digest('hex');
  }
}

/** Compares two strings in time that depends only on their length. */
export function constantTimeEquals(left: string, right: string): boolean {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
