import type { BudgetSettings } from '../budgets/budget-settings.js';

/** What a user may do: `admin` also manages users and channels and reads every user's usage. */
export const userRoles = ['admin', 'user'] as const;
export type UserRole = (typeof userRoles)[number];

/** User status values: the numbers the token API uses for a token's status (1 enabled, 2 disabled). */
export const UserStatus = { enabled: 1, disabled: 2 } as const;
export type UserStatusValue = (typeof UserStatus)[keyof typeof UserStatus];

/** A person or system that owns tokens and signs in to the management API with a login token. */
export interface UserRecord {
  id: number;
  username: string;
  role: UserRole;
  /** A disabled user's login token and API keys are refused. */
  status: UserStatusValue;
  /** SHA-256 of the login token; the token itself is never stored. */
  login_token_hash: string;
  created_time: number;
  /** The user's budgets per period, over all its tokens; absent for none. */
  budget?: BudgetSettings;
  /** Set for a user created by a single sign-on: who it is at its identity provider. */
  external_identity?: ExternalIdentity;
}

/** A person as an OpenID provider knows them: the provider's issuer and their subject there, which never changes. */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
}

/** Where users live. */
export interface UserRepository {
  get(id: number): Promise<UserRecord | undefined>;
  findByUsername(username: string): Promise<UserRecord | undefined>;
  findByLoginTokenHash(hash: string): Promise<UserRecord | undefined>;
  findByExternalIdentity(identity: ExternalIdentity): Promise<UserRecord | undefined>;
  /** Writes the user, keeping the username, login-token and external-identity indexes in step. */
  save(user: UserRecord): Promise<void>;
  /** An id no user has yet. */
  nextId(): Promise<number>;
  count(): Promise<number>;
  /** Every user's id. */
  ids(): Promise<number[]>;
}
