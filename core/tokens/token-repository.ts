import type { TokenRecord, TokenView } from './token-record.js';

/** Where tokens live. The service holds the rules; this holds only the data. */
export interface TokenRepository {
  nextId(): Promise<number>;
  insert(record: TokenRecord, remainQuota: number): Promise<void>;
  /** Replaces the record; when `remainQuota` is given, the balance's remaining units too. */
  update(record: TokenRecord, remainQuota?: number): Promise<void>;
  delete(record: TokenRecord): Promise<void>;
  get(id: number): Promise<TokenView | undefined>;
  /** The tokens that exist among `ids`, in the order of `ids`. */
  getMany(ids: readonly number[]): Promise<TokenView[]>;
  findIdByKeyHash(keyHash: string): Promise<number | undefined>;
  idsOfUser(userId: number): Promise<number[]>;
  /** Records last-access times, several at once. */
  recordAccessTimes(times: ReadonlyMap<number, number>): Promise<void>;
}

/** The store account holding a token's balance. */
export const tokenBalanceAccount = (id: number) => `token:${id}`;
