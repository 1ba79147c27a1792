import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import { forbidden, insufficientQuota, unauthorized, userDisabled } from '../errors/error-codes.js';
import { ipInRanges, parseIpRange, type IpRange } from '../security/ip-allow-list.js';
import { constantTimeEquals, type KeyCipher } from '../security/key-cipher.js';
import { missedMessages, type StoreBackend } from '../store/store-backend.js';
import { AccessTimeRecorder } from './access-time-recorder.js';
import { persistTokenStatus } from './persist-token-status.js';
import { isExhausted, isExpired, TokenStatus, type TokenView } from './token-record.js';
import type { TokenRepository } from './token-repository.js';
import { tokenInvalidationChannel, userInvalidationChannel } from './token-invalidation.js';
import { UserStatus, type UserRepository } from '../users/user-repository.js';

/** A token that passed authentication, as the pipeline sees it. */
export interface AuthenticatedToken {
  readonly token: TokenView;
  /** Parsed `allow_ips`, empty when every address is allowed. */
  readonly allowRanges: readonly IpRange[];
}

interface CacheEntry {
  authenticated: AuthenticatedToken;
  /** The token's user was disabled when the entry was read. */
  ownerDisabled: boolean;
  loadedAt: number;
}

const keyShape = /^[0-9A-Za-z]{48}$/;
const cacheLifetimeMilliseconds = 60_000;

/** The key of a presented `sk-<key>` (the prefix is optional) when it has the shape of one, else undefined. */
export function wellFormedApiKey(presented: string): string | undefined {
  const key = presented.startsWith('sk-') ? presented.slice(3) : presented;
  return keyShape.test(key) ? key : undefined;
}

/**
 * Checks API keys on the model routes. Lookups come from an in-memory cache, dropped for a
 * token when any process announces it changed (see {@link tokenInvalidationChannel}), and for
 * every token of a user whose status changed ({@link userInvalidationChannel}); entries also
 * age out after a minute in case an announcement was missed.
 */
export class TokenAuthenticator {
  readonly #tokens: TokenRepository;
  readonly #users: UserRepository;
  readonly #cipher: KeyCipher;
  readonly #backend: StoreBackend;
  readonly #accessTimes: AccessTimeRecorder;
  readonly #clock: Clock;
  // Keyed by the key itself, so a cached request computes no HMAC; the process already holds
  // the key in memory (it compares it on a miss), so this keeps nothing it did not have.
  readonly #byKey = new Map<string, CacheEntry>();
  readonly #keyById = new Map<number, string>();
  /** Counts invalidations, so a lookup that raced with one does not cache what it read. */
  #invalidations = 0;

  constructor(
    @inject(InjectionTokens.tokenRepository) tokens: TokenRepository,
    @inject(InjectionTokens.userRepository) users: UserRepository,
    @inject(InjectionTokens.keyCipher) cipher: KeyCipher,
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(AccessTimeRecorder) accessTimes: AccessTimeRecorder,
    @inject(InjectionTokens.clock) clock: Clock,
  ) {
    this.#tokens = tokens;
    this.#users = users;
    this.#cipher = cipher;
    this.#backend = backend;
    this.#accessTimes = accessTimes;
    this.#clock = clock;
  }

  /** Starts listening for invalidations from other processes. */
  async start(): Promise<void> {
    await this.#backend.subscribe(tokenInvalidationChannel, (message) => (message === missedMessages ? this.forgetAll() : this.forget(Number(message))));
    await this.#backend.subscribe(userInvalidationChannel, (message) => (message === missedMessages ? this.forgetAll() : this.forgetUser(Number(message))));
  }

  /** Drops every cached token: invalidations may have been missed while the broker was away. */
  forgetAll(): void {
    this.#invalidations += 1;
    this.#byKey.clear();
    this.#keyById.clear();
  }

  /** Drops a token from the cache. */
  forget(tokenId: number): void {
    this.#invalidations += 1;
    const key = this.#keyById.get(tokenId);
    if (key === undefined) return;
    this.#byKey.delete(key);
    this.#keyById.delete(tokenId);
  }

  /** Drops every cached token of a user (its status changed): a rare event, so the cache is scanned rather than indexed by user. */
  forgetUser(userId: number): void {
    this.#invalidations += 1;
    for (const [key, entry] of this.#byKey) {
      if (entry.authenticated.token.user_id !== userId) continue;
      this.#byKey.delete(key);
      this.#keyById.delete(entry.authenticated.token.id);
    }
  }

  /**
   * Authenticates `sk-<key>` (the prefix is optional) from `clientIp`. Throws 401 for an
   * unknown, disabled or expired key, 403 when the key's user is disabled, 402 when the quota
   * is spent, 403 for an address outside `allow_ips`. Expired and spent tokens are stored with status 3 or 4.
   */
  async authenticate(presented: string, clientIp: string): Promise<AuthenticatedToken> {
    const key = wellFormedApiKey(presented);
    if (key === undefined) throw unauthorized('invalid API key: expected "sk-" followed by 48 letters and digits');
    const entry = await this.#lookup(key);
    if (entry === undefined) throw unauthorized('invalid API key: no token has this key');
    if (entry.ownerDisabled) throw userDisabled('API key');
    const { token } = entry.authenticated;
    const nowSeconds = Math.floor(this.#clock.now() / 1000);
    if (token.status === TokenStatus.disabled) throw unauthorized('this API key is disabled; enable the token to use it', 'token_disabled');
    if (token.status === TokenStatus.expired || isExpired(token, nowSeconds)) {
      await this.#persistStatus(token, TokenStatus.expired);
      throw unauthorized('this API key has expired; extend expired_time and enable the token', 'token_expired');
    }
    if (token.status === TokenStatus.exhausted || isExhausted(token)) {
      await this.#persistStatus(token, TokenStatus.exhausted);
      throw insufficientQuota('this API key has no quota left; raise remain_quota or set unlimited_quota');
    }
    const { allowRanges } = entry.authenticated;
    if (allowRanges.length > 0 && !ipInRanges(clientIp, allowRanges)) {
      throw forbidden(`this API key may not be used from ${clientIp}; add it to the token's allow_ips`);
    }
    this.#accessTimes.touch(token.id, nowSeconds);
    return entry.authenticated;
  }

  async #lookup(key: string): Promise<CacheEntry | undefined> {
    const cached = this.#byKey.get(key);
    if (cached !== undefined && this.#clock.now() - cached.loadedAt < cacheLifetimeMilliseconds) return cached;
    const invalidationsBefore = this.#invalidations;
    const id = await this.#tokens.findIdByKeyHash(this.#cipher.lookupHash(key));
    const token = id === undefined ? undefined : await this.#tokens.get(id);
    if (token === undefined) return undefined;
    const storedKey = this.#cipher.decrypt(token.sealed_key);
    if (!constantTimeEquals(storedKey, key)) return undefined;
    // Read once per cache entry, not per request. Only a user disabled on purpose is refused;
    // a token whose user has no record is judged by the token alone, as before users had a status.
    const owner = await this.#users.get(token.user_id);
    const entry: CacheEntry = {
      // The user's budgets go with the token, so a request reads no user record to count them.
      authenticated: {
        token: owner?.budget === undefined ? token : { ...token, owner_budget: owner.budget },
        allowRanges: token.allow_ips.map(parseIpRange).filter((range): range is IpRange => range !== undefined),
      },
      ownerDisabled: owner?.status === UserStatus.disabled,
      loadedAt: this.#clock.now(),
    };
    if (this.#invalidations === invalidationsBefore) {
      this.#byKey.set(storedKey, entry);
      this.#keyById.set(token.id, storedKey);
    }
    return entry;
  }

  async #persistStatus(token: TokenView, status: 3 | 4): Promise<void> {
    if (token.status === status) return;
    await persistTokenStatus(this.#tokens, this.#backend, token.id, status);
  }
}
