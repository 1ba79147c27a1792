import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { constantTimeEquals } from '../../core/security/key-cipher.js';
import type { AuthorizationChecks } from './oidc-relying-party.js';

/** How long a started sign-in may take, from the console's link to the provider's callback. */
export const signInFlowMilliseconds = 10 * 60 * 1000;

// Bound into every sealed flow, so that nothing sealed under this key for another use could pass for one.
const purpose = Buffer.from('model-gateway sign-in flow v1');

const sealedFlow = z.object({ state: z.string(), nonce: z.string(), codeVerifier: z.string(), expiresAt: z.number() });

/** What {@link SignInFlows.open} found for a callback. */
export type OpenedFlow = { found: true; checks: AuthorizationChecks } | { found: false; why: string };

/**
 * A started sign-in travels with the browser that started it, in an httpOnly cookie sealed with
 * AES-256-GCM under a key derived from the operator's secret (so any instance on the same
 * secret can open it, and no one else can read or forge it): the state, the nonce, the PKCE
 * code verifier and when the flow ends, {@link signInFlowMilliseconds} after its start. The
 * gateway keeps nothing, so an unauthenticated start costs the store nothing.
 *
 * The callback's state must be the one in the cookie: a link carrying someone else's code and
 * state finds no cookie of theirs in this browser, so it cannot sign a person in as someone
 * else (login CSRF). The callback clears the cookie, and the provider takes each code once, so a
 * replayed callback gets nothing.
 */
export class SignInFlows {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  /** The cookie value that carries a started sign-in's checks. */
  seal(checks: AuthorizationChecks, now: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: 16 }).setAAD(purpose);
    const plaintext = JSON.stringify({ ...checks, expiresAt: now + signInFlowMilliseconds });
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  /** The checks of the sign-in the browser's cookie carries, when it is this callback's (`state`), sealed here and not over. */
  open(state: string, cookie: string | undefined, now: number): OpenedFlow {
    if (cookie === undefined || cookie === '') {
      return { found: false, why: 'this browser has no sign-in in progress: it was started in another browser, more than 10 minutes ago, or has already been completed' };
    }
    const [iv, tag, ciphertext, extra] = cookie.split('.');
    let flow: z.infer<typeof sealedFlow>;
    try {
      if (iv === undefined || tag === undefined || ciphertext === undefined || extra !== undefined) throw new Error('not three parts');
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), { authTagLength: 16 }).setAAD(purpose);
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      flow = sealedFlow.parse(JSON.parse(plaintext));
    } catch {
      return { found: false, why: "this browser's sign-in cookie was not made by this gateway (or by one with another security.encryption_key)" };
    }
    if (!constantTimeEquals(flow.state, state)) return { found: false, why: 'this callback is not for the sign-in this browser started (its state differs)' };
    if (flow.expiresAt <= now) return { found: false, why: 'this sign-in was started more than 10 minutes ago' };
    return { found: true, checks: { state: flow.state, nonce: flow.nonce, codeVerifier: flow.codeVerifier } };
  }
}
