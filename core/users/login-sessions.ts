import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import { generateLoginToken, hashLoginToken } from '../security/login-token.js';
import type { StoreBackend } from '../store/store-backend.js';
import { StoreRepository } from '../store/store-repository.js';

/** A login session: a login token of limited life issued at a sign-in (single sign-on), not a user's own. */
export interface LoginSession {
  user_id: number;
  /** Seconds since the epoch. */
  created_time: number;
  /** Seconds since the epoch; from then on the session's token is refused. */
  expires_at: number;
}

/**
 * Login sessions in the store, keyed by the SHA-256 of their token (the token itself is never
 * stored, as for users' login tokens). Each record carries the store's TTL too, so an ended
 * session leaves nothing behind; the expiry is also checked on read, since a store may keep
 * an expired record until it sweeps. Shared by every instance on the store: a session issued
 * by one is accepted, and ended, on all.
 */
export class LoginSessions extends StoreRepository {
  readonly #records = this.backend.keyv<LoginSession>('login-sessions');
  readonly #clock: Clock;

  constructor(@inject(InjectionTokens.storeBackend) backend: StoreBackend, @inject(InjectionTokens.clock) clock: Clock) {
    super(backend);
    this.#clock = clock;
  }

  /** Starts a session of `userId` for `lifetimeSeconds` and returns its login token: the only time it is seen. */
  async issue(userId: number, lifetimeSeconds: number): Promise<{ loginToken: string; session: LoginSession }> {
    const loginToken = generateLoginToken();
    const now = Math.floor(this.#clock.now() / 1000);
    const session: LoginSession = { user_id: userId, created_time: now, expires_at: now + lifetimeSeconds };
    await this.#records.set(hashLoginToken(loginToken), session, lifetimeSeconds * 1000);
    return { loginToken, session };
  }

  /** The live session a login token opens, if any. */
  async find(loginToken: string): Promise<LoginSession | undefined> {
    const session = await this.#records.get(hashLoginToken(loginToken));
    if (session === undefined || session === null) return undefined;
    return session.expires_at > this.#clock.now() / 1000 ? session : undefined;
  }

  /** Ends the session a login token opens; true when there was one. */
  end(loginToken: string): Promise<boolean> {
    return this.#records.delete(hashLoginToken(loginToken));
  }
}
