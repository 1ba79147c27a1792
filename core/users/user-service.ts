import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { invalidRequest } from '../errors/error-codes.js';
import { generateLoginToken, hashLoginToken } from '../security/login-token.js';
import type { UserRecord, UserRepository } from './user-repository.js';

/** What bootstrapping did, for the start-up log (never the token itself). */
export interface BootstrapOutcome {
  configured: number;
  /** Set when a first admin was generated: the 0600 file that holds its login token. */
  generatedTokenFile?: string;
}

/** Users: bootstrap from config, creation from the CLI, sign-in by login token. */
export class UserService {
  readonly #users: UserRepository;
  readonly #clock: Clock;

  constructor(@inject(InjectionTokens.userRepository) users: UserRepository, @inject(InjectionTokens.clock) clock: Clock) {
    this.#users = users;
    this.#clock = clock;
  }

  /** Creates a user and returns its login token; the only time the token is shown. */
  async create(username: string, role: UserRecord['role'] = 'user'): Promise<{ user: UserRecord; loginToken: string }> {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(username)) {
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
      login_token_hash: hashLoginToken(loginToken),
      created_time: Math.floor(this.#clock.now() / 1000),
    };
    await this.#users.save(user);
    return { user, loginToken };
  }

  /** The user a login token belongs to, if any. */
  authenticate(loginToken: string): Promise<UserRecord | undefined> {
    return this.#users.findByLoginTokenHash(hashLoginToken(loginToken));
  }

  /**
   * Writes the config's users (the config is the truth for their name and login token).
   * An entry whose login token is empty is skipped: its environment variable is unset.
   * When no user is configured and the store is empty, a first admin is created and its
   * login token written to `<dataDirectory>/admin-login-token` with mode 0600.
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
      await this.#users.save({
        id: entry.id,
        username: entry.username,
        role: 'admin',
        login_token_hash: hashLoginToken(entry.login_token),
        created_time: existing?.created_time ?? Math.floor(this.#clock.now() / 1000),
      });
      configured += 1;
    }
    if (configured > 0 || (await this.#users.count()) > 0) return { configured };
    const { loginToken } = await this.create('admin', 'admin');
    const directory = resolve(dataDirectory);
    mkdirSync(directory, { recursive: true });
    const file = join(directory, 'admin-login-token');
    writeFileSync(file, `${loginToken}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return { configured, generatedTokenFile: file };
  }
}
