import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import type { StoreBackend } from '../store/store-backend.js';
import { StoreRepository } from '../store/store-repository.js';
import { UserStatus, type ExternalIdentity, type UserRecord, type UserRepository } from './user-repository.js';

// One key per identity: the subject is unique only within its issuer.
const identityKey = (identity: ExternalIdentity) => JSON.stringify([identity.issuer, identity.subject]);

/** {@link UserRepository} on any {@link StoreBackend}. */
export class StoreUserRepository extends StoreRepository implements UserRepository {
  readonly #records = this.backend.keyv<UserRecord>('users');
  readonly #byUsername = this.backend.keyv<number>('user-by-username');
  readonly #byLoginTokenHash = this.backend.keyv<number>('user-by-login-token-hash');
  readonly #byExternalIdentity = this.backend.keyv<number>('user-by-external-identity');

  constructor(@inject(InjectionTokens.storeBackend) backend: StoreBackend) {
    super(backend);
  }

  async get(id: number): Promise<UserRecord | undefined> {
    const stored = await this.#records.get(String(id));
    if (stored === undefined || stored === null) return undefined;
    // Users stored before statuses existed were all enabled.
    return stored.status === undefined ? { ...stored, status: UserStatus.enabled } : stored;
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const id = await this.#byUsername.get(username);
    return id === undefined || id === null ? undefined : this.get(id);
  }

  async findByLoginTokenHash(hash: string): Promise<UserRecord | undefined> {
    const id = await this.#byLoginTokenHash.get(hash);
    if (id === undefined || id === null) return undefined;
    const user = await this.get(id);
    // The index may outlive a rotated token for a moment; the record is the truth.
    return user?.login_token_hash === hash ? user : undefined;
  }

  async findByExternalIdentity(identity: ExternalIdentity): Promise<UserRecord | undefined> {
    const id = await this.#byExternalIdentity.get(identityKey(identity));
    if (id === undefined || id === null) return undefined;
    const user = await this.get(id);
    return user?.external_identity !== undefined && identityKey(user.external_identity) === identityKey(identity) ? user : undefined;
  }

  async save(user: UserRecord): Promise<void> {
    const previous = await this.get(user.id);
    if (previous !== undefined && previous.login_token_hash !== user.login_token_hash) {
      await this.#byLoginTokenHash.delete(previous.login_token_hash);
    }
    if (previous !== undefined && previous.username !== user.username) await this.#byUsername.delete(previous.username);
    await this.#records.set(String(user.id), user);
    await this.#byUsername.set(user.username, user.id);
    if (user.external_identity !== undefined) await this.#byExternalIdentity.set(identityKey(user.external_identity), user.id);
    if (user.login_token_hash !== '') await this.#byLoginTokenHash.set(user.login_token_hash, user.id);
    await this.backend.addToSet('users', [String(user.id)]);
  }

  async nextId(): Promise<number> {
    for (;;) {
      const id = await this.backend.increment('user-id');
      if ((await this.get(id)) === undefined) return id;
    }
  }

  async count(): Promise<number> {
    return (await this.backend.setMembers('users')).length;
  }

  async ids(): Promise<number[]> {
    return (await this.backend.setMembers('users')).map(Number);
  }
}
