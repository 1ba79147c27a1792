import { createHash } from 'node:crypto';
import { randomAlphanumeric } from './random-string.js';

/** A new user login token: `mgu_` and 43 random alphanumerics (over 256 bits). */
export function generateLoginToken(): string {
  return `mgu_${randomAlphanumeric(43)}`;
}

/**
 * What is stored of a login token. A fast hash suffices: the token is random with over
 * 256 bits of entropy, so there is nothing for a slow password hash to protect.
 */
export function hashLoginToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
