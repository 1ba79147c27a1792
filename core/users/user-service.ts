import { chmodSync, closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { invalidRequest, notFound } from '../errors/error-codes.js';
import { generateLoginToken, hashLoginToken } from '../security/login-token.js';
import type { StoreBackend } from '../store/store-backend.js';
import { TokenAuthenticator } from '../tokens/token-authenticator.js';
import { userInvalidationChannel } from '../tokens/token-invalidation.js';
import { applyBudgetFields, type BudgetFields } from '../budgets/budget-settings.js';
import { BudgetPolicy, type BudgetStatus } from '../budgets/budget-policy.js';
import { LoginSessions } from './login-sessions.js';
import { UserStatus, type ExternalIdentity, type UserRecord, type UserRepository, type UserRole, type UserStatusValue } from './user-repository.js';

const usernamePattern = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A username made of what an identity provider calls the person (`grace.hopper`,
 * `grace@example.com`): every run of characters a username may not hold becomes one `-`.
 */
export function usernameFrom(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return cleaned === '' ? 'user' : cleaned;
}

/** What bootstrapping did, for the start-up log (never the token itself). */
export interface BootstrapOutcome {
  configured: number;
  /** Set when a first admin was generated: the 0600 file that holds its login token. */
  generatedTokenFile?: string;
}

/** One page of users, newest first, as the token list pages. */
export interface UserPage {
  items: UserRecord[];
  total: number;
  page: number;
  page_size: number;
}

/** Users: bootstrap from config, creation from the CLI and the user API, sign-in by login token, enabling and disabling. */
export class UserService {
  readonly #users: UserRepository;
  readonly #clock: Clock;
  readonly #backend: StoreBackend;
  readonly #authenticator: TokenAuthenticator;
  readonly #budgets: BudgetPolicy;
  readonly #sessions: LoginSessions;

  constructor(
    @inject(InjectionTokens.userRepository) users: UserRepository,
    @inject(InjectionTokens.clock) clock: Clock,
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(TokenAuthenticator) authenticator: TokenAuthenticator,
    @inject(BudgetPolicy) budgets: BudgetPolicy,
    @inject(LoginSessions) sessions: LoginSessions,
  ) {
    this.#budgets = budgets;
    this.#sessions = sessions;
    this.#users = users;
    this.#clock = clock;
    this.#backend = backend;
    this.#authenticator = authenticator;
  }

  /** Creates an enabled user and returns its login token; the only time the token is shown. */
  async create(username: string, role: UserRole = 'user', budget: BudgetFields = {}): Promise<{ user: UserRecord; loginToken: string }> {
    if (!usernamePattern.test(username)) {
      throw invalidRequest('username: expected 1 to 64 letters, digits, ".", "_" or "-"', { param: 'username' });
    }
    if ((await this.#users.findByUsername(username)) !== undefined) {
      throw invalidRequest(`username: "${username}" is taken`, { param: 'username' });
    }
    const loginToken = generateLoginToken();
    const user: UserRecord = {
      id: await this.#users.nextId(),
      username,
      role,
      status: UserStatus.enabled,
      login_token_hash: hashLoginToken(loginToken),
      created_time: Math.floor(this.#clock.now() / 1000),
    };
    const budgets = applyBudgetFields(undefined, budget);
    if (budgets !== undefined) user.budget = budgets;
    await this.#users.save(user);
    return { user, loginToken };
  }

  /** Each budget of the user with what its current period has counted over all its tokens (empty without budgets). */
  budgetStatuses(user: UserRecord): Promise<BudgetStatus[]> {
    return this.#budgets.statuses('user', user.id, user.budget, this.#backend);
  }

  /**
   * The user a login token belongs to, if any, whatever its status: the caller refuses a
   * disabled one. The token is the user's own, or a live login session's (see {@link LoginSessions}).
   */
  async authenticate(loginToken: string): Promise<UserRecord | undefined> {
    const own = await this.#users.findByLoginTokenHash(hashLoginToken(loginToken));
    if (own !== undefined) return own;
    const session = await this.#sessions.find(loginToken);
    return session === undefined ? undefined : this.#users.get(session.user_id);
  }

  /**
   * The user an identity provider signed in, created on its first sign-in with `claims.role`
   * and a username made of `claims.username` (with `-2`, `-3`… when another user has it), and
   * no login token of its own: it signs in through the provider only. On a later sign-in the
   * claims are the truth for the role, which is changed when they give another; the username
   * stays. A disabled user is answered as it is, unchanged: the caller refuses it.
   */
  async signInWithIdentity(identity: ExternalIdentity, claims: { username: string; role: UserRole }): Promise<UserRecord> {
    const existing = await this.#users.findByExternalIdentity(identity);
    if (existing !== undefined) {
      if (existing.status === UserStatus.disabled || existing.role === claims.role) return existing;
      const updated: UserRecord = { ...existing, role: claims.role };
      await this.#users.save(updated);
      return updated;
    }
    const user: UserRecord = {
      id: await this.#users.nextId(),
      username: await this.#freeUsername(usernameFrom(claims.username)),
      role: claims.role,
      status: UserStatus.enabled,
      login_token_hash: '',
      created_time: Math.floor(this.#clock.now() / 1000),
      external_identity: { issuer: identity.issuer, subject: identity.subject },
    };
    await this.#users.save(user);
    return user;
  }

  /** Starts a login session of the user for `lifetimeSeconds`; its login token is answered once. */
  async startSession(user: UserRecord, lifetimeSeconds: number): Promise<{ loginToken: string; expiresAt: number }> {
    const { loginToken, session } = await this.#sessions.issue(user.id, lifetimeSeconds);
    return { loginToken, expiresAt: session.expires_at };
  }

  /** Ends the login session `loginToken` opens; false when it opens none (a user's own login token is not a session). */
  endSession(loginToken: string): Promise<boolean> {
    return this.#sessions.end(loginToken);
  }

  /** `wanted`, or the first of `wanted-2`, `wanted-3`… that no user has. */
  async #freeUsername(wanted: string): Promise<string> {
    if ((await this.#users.findByUsername(wanted)) === undefined) return wanted;
    for (let suffix = 2; ; suffix += 1) {
      const candidate = `${wanted.slice(0, 64 - String(suffix).length - 1)}-${suffix}`;
      if ((await this.#users.findByUsername(candidate)) === undefined) return candidate;
    }
  }

  /** User `id`; 404 when there is none. */
  async get(id: number): Promise<UserRecord> {
    const user = await this.#users.get(id);
    if (user === undefined) throw notFound(`id: no user has id ${id}`, 'user_not_found');
    return user;
  }

  /** Every user, newest first. */
  async list(page: number, pageSize: number): Promise<UserPage> {
    const ids = (await this.#users.ids()).sort((a, b) => b - a);
    const items = await Promise.all(ids.slice((page - 1) * pageSize, page * pageSize).map((id) => this.#users.get(id)));
    return { items: items.filter((user): user is UserRecord => user !== undefined), total: ids.length, page, page_size: pageSize };
  }

  /**
   * Enables or disables user `id` on behalf of `actorId`. A disabled user's login token and API
   * keys are refused: every process is told at once on the store's channel and drops the
   * user's cached keys. Nobody disables themself (400), so the admin doing it keeps access.
   */
  async setStatus(actorId: number, id: number, status: UserStatusValue): Promise<UserRecord> {
    return this.update(actorId, id, { status });
  }

  /**
   * Changes user `id`'s status and budgets on behalf of `actorId` (see {@link setStatus}); a
   * budget field left out keeps its period's limit, null removes it. Every process is told,
   * so the next request of the user's tokens counts in the new budgets.
   */
  async update(actorId: number, id: number, changes: BudgetFields & { status?: UserStatusValue }): Promise<UserRecord> {
    const { status, ...budgetFields } = changes;
    if (id === actorId && status === UserStatus.disabled) {
      throw invalidRequest('id: you cannot disable yourself; sign in as another admin to disable this user', { param: 'id' });
    }
    const user = await this.get(id);
    const updated: UserRecord = { ...user, status: status ?? user.status };
    const budget = applyBudgetFields(user.budget, budgetFields);
    if (budget === undefined) delete updated.budget;
    else updated.budget = budget;
    if (updated.status === user.status && JSON.stringify(updated.budget) === JSON.stringify(user.budget)) return user;
    await this.#users.save(updated);
    // This process forgets at once; on Redis its own announcement comes back only after a round trip.
    this.#authenticator.forgetUser(id);
    await this.#backend.publish(userInvalidationChannel, String(id));
    return updated;
  }

  /**
   * Writes the config's users (the config is the truth for their name, login token and role;
   * a status set through the user API is kept). An entry whose login token is empty is
   * skipped: its environment variable is unset. When no user is configured and the store is
   * empty, a first admin is created and its login token written to
   * `<dataDirectory>/admin-login-token` with mode 0600.
   */
  async bootstrap(users: GatewayConfig['users'], dataDirectory: string): Promise<BootstrapOutcome> {
    let configured = 0;
    for (const [index, entry] of users.entries()) {
      if (entry.login_token === '') continue;
      const holder = await this.#users.findByUsername(entry.username);
      if (holder !== undefined && holder.id !== entry.id) {
        throw invalidRequest(`users[${index}].username: "${entry.username}" already belongs to user ${holder.id} in the store; rename one of them`);
      }
      const existing = await this.#users.get(entry.id);
      // Budgets in the config replace the stored ones; without any there, the user API's stay.
      const budgetConfigured = entry.budget_daily !== undefined || entry.budget_weekly !== undefined || entry.budget_monthly !== undefined || entry.budget_mode !== undefined;
      const budget = budgetConfigured ? applyBudgetFields(undefined, entry) : existing?.budget;
      await this.#users.save({
        id: entry.id,
        username: entry.username,
        role: entry.role,
        status: existing?.status ?? UserStatus.enabled,
        login_token_hash: hashLoginToken(entry.login_token),
        created_time: existing?.created_time ?? Math.floor(this.#clock.now() / 1000),
        ...(budget === undefined ? {} : { budget }),
      });
      configured += 1;
    }
    if (configured > 0 || (await this.#users.count()) > 0) return { configured };
    const directory = resolve(dataDirectory);
    const file = join(directory, 'admin-login-token');
    // The file is opened before the admin exists: a data directory that cannot be written must
    // fail the start, not leave an admin whose login token nobody can read (the next start
    // would find a user and create none).
    mkdirSync(directory, { recursive: true });
    const descriptor = openSync(file, 'w', 0o600);
    try {
      const { loginToken } = await this.create('admin', 'admin');
      writeSync(descriptor, `${loginToken}\n`);
    } catch (error) {
      closeSync(descriptor);
      rmSync(file, { force: true });
      throw error;
    }
    closeSync(descriptor);
    chmodSync(file, 0o600);
    return { configured, generatedTokenFile: file };
  }
}
