import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Keyv from 'keyv';
import type { StoreBackend } from '../../core/store/store-backend.js';
import type { AuthorizationChecks } from './oidc-relying-party.js';

/** How long a started sign-in may take, from the console's button to the provider's callback. */
export const signInFlowMilliseconds = 10 * 60 * 1000;

interface StoredFlow extends AuthorizationChecks {
  /** SHA-256 of the browser binding, the value of the cookie the start set in that browser. */
  binding_hash: string;
}

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** What {@link SignInFlows.take} found for a callback. */
export type TakenFlow = { found: true; checks: AuthorizationChecks } | { found: false; why: string };

/**
 * Started sign-ins, kept in the store under their state (so the callback may reach any instance)
 * for {@link signInFlowMilliseconds}, each tied to the browser that started it by a random
 * binding: the start hands the browser the binding in an httpOnly cookie and keeps only its hash.
 * A callback whose browser lacks the binding is refused, so a link with someone else's code and
 * state cannot sign a person in as that someone (login CSRF). A flow is taken once: a replayed
 * callback finds nothing.
 */
export class SignInFlows {
  readonly #records: Keyv<StoredFlow>;

  constructor(backend: StoreBackend) {
    this.#records = backend.keyv<StoredFlow>('sign-in-flows');
  }

  /** Keeps a started sign-in; answers the browser binding to set as the cookie. */
  async keep(checks: AuthorizationChecks): Promise<string> {
    const binding = randomBytes(32).toString('base64url');
    await this.#records.set(checks.state, { ...checks, binding_hash: hash(binding).toString('hex') }, signInFlowMilliseconds);
    return binding;
  }

  /** Takes the flow of `state`, once, when `binding` (the browser's cookie) is the one it was started with. */
  async take(state: string, binding: string | undefined): Promise<TakenFlow> {
    const flow = await this.#records.get(state);
    // The delete decides between two callbacks racing with one state: only one removes it.
    if (flow === undefined || flow === null || !(await this.#records.delete(state))) {
      return { found: false, why: 'this sign-in is unknown, older than 10 minutes, or already used' };
    }
    if (binding === undefined) return { found: false, why: 'this browser did not start this sign-in (its sign-in cookie is missing)' };
    if (!timingSafeEqual(hash(binding), Buffer.from(flow.binding_hash, 'hex'))) return { found: false, why: 'this browser did not start this sign-in' };
    return { found: true, checks: { state: flow.state, nonce: flow.nonce, codeVerifier: flow.codeVerifier } };
  }
}
