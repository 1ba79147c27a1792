/** A person or system that owns tokens and signs in to the management API with a login token. */
export interface UserRecord {
  id: number;
  username: string;
  role: 'admin' | 'user';
  /** SHA-256 of the login token; the token itself is never stored. */
  login_token_hash: string;
  created_time: number;
}

/** Where users live. */
export interface UserRepository {
  get(id: number): Promise<UserRecord | undefined>;
  findByUsername(username: string): Promise<UserRecord | undefined>;
  findByLoginTokenHash(hash: string): Promise<UserRecord | undefined>;
  /** Writes the user, keeping the username and login-token indexes in step. */
  save(user: UserRecord): Promise<void>;
  /** An id no user has yet. */
  nextId(): Promise<number>;
  count(): Promise<number>;
  /** Every user's id. */
  ids(): Promise<number[]>;
}
