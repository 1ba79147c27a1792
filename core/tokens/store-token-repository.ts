import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import type { StoreBackend } from '../store/store-backend.js';
import { StoreRepository } from '../store/store-repository.js';
import type { TokenRecord, TokenView } from './token-record.js';
import { tokenBalanceAccount, type TokenRepository } from './token-repository.js';

const recordsNamespace = 'tokens';
const byKeyHashNamespace = 'token-by-key-hash';

/** {@link TokenRepository} on any {@link StoreBackend}. */
export class StoreTokenRepository extends StoreRepository implements TokenRepository {
  readonly #records = this.backend.keyv<TokenRecord>(recordsNamespace);
  readonly #byKeyHash = this.backend.keyv<number>(byKeyHashNamespace);
  readonly #accessTimes = this.backend.keyv<number>('token-accessed-time');

  constructor(@inject(InjectionTokens.storeBackend) backend: StoreBackend) {
    super(backend);
  }

  nextId(): Promise<number> {
    return this.backend.increment('token-id');
  }

  /** The record, its key-hash index, its owner's set and its balance, written together. */
  async insert(record: TokenRecord, remainQuota: number): Promise<void> {
    await this.backend.writeTogether({
      records: [
        { namespace: recordsNamespace, key: String(record.id), value: record },
        { namespace: byKeyHashNamespace, key: record.key_hash, value: record.id },
      ],
      setAdditions: [{ key: `user-tokens:${record.user_id}`, members: [String(record.id)] }],
      remaining: [{ account: tokenBalanceAccount(record.id), remain: remainQuota }],
    });
  }

  /** The record and, when given, the balance's remaining units, written together. */
  async update(record: TokenRecord, remainQuota?: number): Promise<void> {
    if (remainQuota === undefined) {
      await this.#records.set(String(record.id), record);
      return;
    }
    await this.backend.writeTogether({
      records: [{ namespace: recordsNamespace, key: String(record.id), value: record }],
      remaining: [{ account: tokenBalanceAccount(record.id), remain: remainQuota }],
    });
  }

  async delete(record: TokenRecord): Promise<void> {
    await this.backend.removeFromSet(`user-tokens:${record.user_id}`, [String(record.id)]);
    await this.#byKeyHash.delete(record.key_hash);
    await this.#records.delete(String(record.id));
    await this.#accessTimes.delete(String(record.id));
    await this.backend.deleteBalance(tokenBalanceAccount(record.id));
  }

  async get(id: number): Promise<TokenView | undefined> {
    return (await this.getMany([id]))[0];
  }

  async getMany(ids: readonly number[]): Promise<TokenView[]> {
    if (ids.length === 0) return [];
    const keys = ids.map(String);
    const [records, accessTimes, balances] = await Promise.all([
      this.#records.getMany(keys),
      this.#accessTimes.getMany(keys),
      this.backend.readBalances(ids.map(tokenBalanceAccount)),
    ]);
    const views: TokenView[] = [];
    records.forEach((record, index) => {
      if (record === undefined || record === null) return;
      const balance = balances.get(tokenBalanceAccount(record.id));
      views.push({
        ...record,
        remain_quota: balance?.remain ?? 0,
        used_quota: balance?.used ?? 0,
        accessed_time: accessTimes[index] ?? record.created_time,
      });
    });
    return views;
  }

  async findIdByKeyHash(keyHash: string): Promise<number | undefined> {
    return (await this.#byKeyHash.get(keyHash)) ?? undefined;
  }

  async idsOfUser(userId: number): Promise<number[]> {
    return (await this.backend.setMembers(`user-tokens:${userId}`)).map(Number);
  }

  async recordAccessTimes(times: ReadonlyMap<number, number>): Promise<void> {
    if (times.size === 0) return;
    await this.#accessTimes.setMany([...times].map(([id, time]) => ({ key: String(id), value: time })));
  }
}
