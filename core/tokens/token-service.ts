import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { invalidRequest, notFound, rateLimited } from '../errors/error-codes.js';
import { parseIpRange } from '../security/ip-allow-list.js';
import type { KeyCipher } from '../security/key-cipher.js';
import { randomAlphanumeric } from '../security/random-string.js';
import type { StoreBackend } from '../store/store-backend.js';
import { compileKeySearchPattern } from './key-search-pattern.js';
import { TokenAuthenticator } from './token-authenticator.js';
import { isExhausted, isExpired, recordOf, TokenStatus, type TokenRecord, type TokenView } from './token-record.js';
import type { TokenRepository } from './token-repository.js';
import { tokenInvalidationChannel } from './token-invalidation.js';
import { quoted } from '../errors/client-text.js';
import { applyBudgetFields, type BudgetFields } from '../budgets/budget-settings.js';
import { BudgetPolicy, type BudgetStatus } from '../budgets/budget-policy.js';

/** Fields a client may set on create and update (already shape-checked by the route). */
export interface TokenFields extends BudgetFields {
  name?: string;
  expired_time?: number;
  remain_quota?: number;
  unlimited_quota?: boolean;
  model_limits_enabled?: boolean;
  model_limits?: string[];
  allow_ips?: string;
  group?: string;
  cross_group_retry?: boolean;
}

/** An update: the token id, any fields, and optionally the status (1 or 2). */
export interface TokenUpdate extends TokenFields {
  id: number;
  status?: 1 | 2;
}

/** One page of tokens. */
export interface TokenPage {
  items: TokenView[];
  total: number;
  page: number;
  page_size: number;
}

/** Defaults for fields a create request leaves out; docs/tokens-and-authentication.md lists them. */
export const tokenDefaults = {
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: [] as string[],
  allow_ips: '',
  group: '',
  cross_group_retry: false,
};

const keyRevealWindowMilliseconds = 60_000;

/** The token rules of spec part 1: ownership, validation, status, search and key reveal. */
export class TokenService {
  readonly #tokens: TokenRepository;
  readonly #backend: StoreBackend;
  readonly #cipher: KeyCipher;
  #config: GatewayConfig;
  readonly #clock: Clock;
  readonly #authenticator: TokenAuthenticator;
  readonly #budgets: BudgetPolicy;

  constructor(
    @inject(InjectionTokens.tokenRepository) tokens: TokenRepository,
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.keyCipher) cipher: KeyCipher,
    @inject(InjectionTokens.config) config: GatewayConfig,
    @inject(InjectionTokens.clock) clock: Clock,
    @inject(TokenAuthenticator) authenticator: TokenAuthenticator,
    @inject(BudgetPolicy) budgets: BudgetPolicy,
  ) {
    this.#budgets = budgets;
    this.#tokens = tokens;
    this.#backend = backend;
    this.#cipher = cipher;
    this.#config = config;
    this.#clock = clock;
    this.#authenticator = authenticator;
  }

  #nowSeconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }

  /** The config a reload put in force: tokens are created and edited against its groups. */
  useConfig(config: GatewayConfig): void {
    this.#config = config;
  }

  /** Creates a token; the key is revealed only through {@link revealKey}. */
  async create(userId: number, fields: TokenFields & { name: string }): Promise<TokenView> {
    const owned = await this.#tokens.idsOfUser(userId);
    const limit = this.#config.security.max_tokens_per_user;
    if (owned.length >= limit) throw invalidRequest(`you already have ${limit} tokens, the most allowed; delete some first`);
    const { budget_daily, budget_weekly, budget_monthly, budget_mode, ...rest } = fields;
    const values = { ...tokenDefaults, ...rest };
    this.#checkFields(values);
    const budget = applyBudgetFields(undefined, { budget_daily, budget_weekly, budget_monthly, budget_mode });
    const key = randomAlphanumeric(48);
    const now = this.#nowSeconds();
    const record: TokenRecord = {
      id: await this.#tokens.nextId(),
      user_id: userId,
      name: values.name,
      sealed_key: this.#cipher.encrypt(key),
      key_hash: this.#cipher.lookupHash(key),
      status: TokenStatus.enabled,
      unlimited_quota: values.unlimited_quota,
      model_limits_enabled: values.model_limits_enabled,
      model_limits: normalizeModelLimits(values.model_limits),
      allow_ips: splitAllowIps(values.allow_ips),
      group: values.group,
      cross_group_retry: values.cross_group_retry,
      expired_time: values.expired_time,
      created_time: now,
      ...(budget === undefined ? {} : { budget }),
    };
    await this.#tokens.insert(record, values.remain_quota);
    return { ...record, remain_quota: values.remain_quota, used_quota: 0, accessed_time: now };
  }

  /** One of the user's tokens; another user's token is reported as not found. */
  async get(userId: number, id: number): Promise<TokenView> {
    const token = await this.#tokens.get(id);
    if (token === undefined || token.user_id !== userId) throw notFound(`token ${id} does not exist`, 'token_not_found');
    return token;
  }

  /** The user's tokens, newest first. */
  async list(userId: number, page: number, pageSize: number): Promise<TokenPage> {
    const ids = (await this.#tokens.idsOfUser(userId)).sort((a, b) => b - a);
    const items = await this.#tokens.getMany(ids.slice((page - 1) * pageSize, page * pageSize));
    return { items, total: ids.length, page, page_size: pageSize };
  }

  /** The user's tokens whose name contains `keyword` (any case) and whose key matches `keyTerm`, newest first. */
  async search(userId: number, keyword: string, keyTerm: string, page: number, pageSize: number): Promise<TokenPage> {
    const matchesKey = keyTerm === '' ? undefined : compileKeySearchPattern(keyTerm);
    const needle = keyword.toLowerCase();
    const ids = (await this.#tokens.idsOfUser(userId)).sort((a, b) => b - a);
    const tokens = await this.#tokens.getMany(ids);
    const found = tokens.filter(
      (token) =>
        token.name.toLowerCase().includes(needle) && (matchesKey === undefined || matchesKey(this.#cipher.decrypt(token.sealed_key))),
    );
    return { items: found.slice((page - 1) * pageSize, page * pageSize), total: found.length, page, page_size: pageSize };
  }

  /**
   * Applies an update. With `statusOnly`, only the status changes. Enabling is refused for a
   * token that is (or, with this update's values, would be) expired or out of quota.
   */
  async update(userId: number, update: TokenUpdate, statusOnly: boolean): Promise<TokenView> {
    const current = await this.get(userId, update.id);
    const next: TokenView = statusOnly
      ? { ...current }
      : {
          ...current,
          name: update.name ?? current.name,
          expired_time: update.expired_time ?? current.expired_time,
          remain_quota: update.remain_quota ?? current.remain_quota,
          unlimited_quota: update.unlimited_quota ?? current.unlimited_quota,
          model_limits_enabled: update.model_limits_enabled ?? current.model_limits_enabled,
          model_limits: update.model_limits === undefined ? current.model_limits : normalizeModelLimits(update.model_limits),
          allow_ips: update.allow_ips === undefined ? current.allow_ips : splitAllowIps(update.allow_ips),
          group: update.group ?? current.group,
          cross_group_retry: update.cross_group_retry ?? current.cross_group_retry,
        };
    if (!statusOnly) {
      const budget = applyBudgetFields(current.budget, update);
      if (budget === undefined) delete next.budget;
      else next.budget = budget;
    }
    if (!statusOnly) this.#checkFields({ ...next, allow_ips: next.allow_ips.join(',') });
    if (statusOnly && update.status === undefined) throw invalidRequest('status: required when status_only is true', { param: 'status' });
    if (update.status !== undefined) {
      if (update.status === TokenStatus.enabled && isExpired(next, this.#nowSeconds())) {
        throw invalidRequest('the token has expired and cannot be enabled; set expired_time to a later time, or to -1 for never', {
          param: 'status',
        });
      }
      if (update.status === TokenStatus.enabled && isExhausted(next)) {
        throw invalidRequest('the token has no quota left and cannot be enabled; raise remain_quota or set unlimited_quota', {
          param: 'status',
        });
      }
      next.status = update.status;
    }
    await this.#tokens.update(recordOf(next), statusOnly || update.remain_quota === undefined ? undefined : next.remain_quota);
    await this.#announce(next.id);
    return next;
  }

  /** Deletes one of the user's tokens; returns it as it was. */
  async delete(userId: number, id: number): Promise<TokenView> {
    const token = await this.get(userId, id);
    await this.#tokens.delete(token);
    await this.#announce(id);
    return token;
  }

  /** Deletes those of `ids` that are the user's; returns them as they were. */
  async deleteMany(userId: number, ids: readonly number[]): Promise<TokenView[]> {
    const owned = new Set(await this.#tokens.idsOfUser(userId));
    const mine = [...new Set(ids)].filter((id) => owned.has(id));
    const tokens = await this.#tokens.getMany(mine);
    for (const token of tokens) {
      await this.#tokens.delete(token);
      await this.#announce(token.id);
    }
    return tokens;
  }

  /** The full key of one of the user's tokens, without `sk-`. Counts against the reveal rate limit. */
  async revealKey(userId: number, id: number): Promise<string> {
    await this.#countReveal(userId);
    const token = await this.get(userId, id);
    return this.#cipher.decrypt(token.sealed_key);
  }

  /** Full keys of those of `ids` that are the user's, by id. Counts once against the reveal rate limit. */
  async revealKeys(userId: number, ids: readonly number[]): Promise<Record<string, string>> {
    await this.#countReveal(userId);
    const tokens = await this.#tokens.getMany([...new Set(ids)]);
    const keys: Record<string, string> = {};
    for (const token of tokens) if (token.user_id === userId) keys[String(token.id)] = this.#cipher.decrypt(token.sealed_key);
    return keys;
  }

  /** Each budget of the token with what its current period has counted (empty without budgets). */
  budgetStatuses(token: TokenRecord): Promise<BudgetStatus[]> {
    return this.#budgets.statuses('token', token.id, token.budget, this.#backend);
  }

  /** The key as stored, decrypted; for masking in responses. */
  plainKey(token: TokenRecord): string {
    return this.#cipher.decrypt(token.sealed_key);
  }

  async #countReveal(userId: number): Promise<void> {
    const limit = this.#config.security.key_reveal_per_minute;
    const hit = await this.#backend.hitWindow(`key-reveal:${userId}`, keyRevealWindowMilliseconds);
    if (hit.count > limit) {
      throw rateLimited(`too many key reveals: at most ${limit} a minute; try again later`, hit.resetInMilliseconds / 1000);
    }
  }

  #checkFields(values: Required<Omit<TokenFields, keyof BudgetFields>>): void {
    const groups = Object.keys(this.#config.groups);
    if (values.group !== '' && values.group !== 'auto' && !groups.includes(values.group)) {
      throw invalidRequest(`group: unknown group ${quoted(values.group)}; use one of ${[...groups, 'auto'].join(', ')}`, { param: 'group' });
    }
    if (values.group === 'auto' && this.#config.auto_groups.length === 0) {
      throw invalidRequest('group: "auto" is not available because the gateway has no auto_groups configured', { param: 'group' });
    }
    for (const entry of splitAllowIps(values.allow_ips)) {
      if (parseIpRange(entry) === undefined) {
        throw invalidRequest(`allow_ips: ${quoted(entry)} is not an IP address or CIDR range`, { param: 'allow_ips' });
      }
    }
  }

  async #announce(id: number): Promise<void> {
    // This process forgets at once; on Redis its own announcement comes back only after a round trip.
    this.#authenticator.forget(id);
    await this.#backend.publish(tokenInvalidationChannel, String(id));
  }
}

/** `allow_ips` arrives comma-separated (newlines are accepted too); blanks are dropped. */
function splitAllowIps(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function normalizeModelLimits(models: readonly string[]): string[] {
  return [...new Set(models.map((model) => model.trim()).filter((model) => model !== ''))];
}
