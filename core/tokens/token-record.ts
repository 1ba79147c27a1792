import type { BudgetSettings } from '../budgets/budget-settings.js';

/** Token status values of spec part 1. */
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export type TokenStatusValue = (typeof TokenStatus)[keyof typeof TokenStatus];

/** What is stored of a token. The key is sealed; quota and access time are kept apart (see {@link TokenView}). */
export interface TokenRecord {
  id: number;
  user_id: number;
  name: string;
  /** The 48-character key, sealed by {@link KeyCipher}. */
  sealed_key: string;
  /** HMAC of the key, for lookup. */
  key_hash: string;
  status: TokenStatusValue;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string[];
  group: string;
  cross_group_retry: boolean;
  /** Unix seconds, -1 for never. */
  expired_time: number;
  created_time: number;
  /** The token's budgets per period; absent for none. */
  budget?: BudgetSettings;
}

/** A token with its balance and last access, as the service reads it. */
export interface TokenView extends TokenRecord {
  remain_quota: number;
  used_quota: number;
  accessed_time: number;
  /**
   * The budgets of the token's user, as the authenticator read them with the token (so the
   * request path reads no user record); absent when the user has none, and outside the
   * request path.
   */
  owner_budget?: BudgetSettings;
}

/** True when the token has an expiry and it has passed. */
export function isExpired(token: Pick<TokenRecord, 'expired_time'>, nowSeconds: number): boolean {
  return token.expired_time !== -1 && token.expired_time <= nowSeconds;
}

/** True when the token has a quota and nothing is left of it. */
export function isExhausted(token: Pick<TokenView, 'unlimited_quota' | 'remain_quota'>): boolean {
  return !token.unlimited_quota && token.remain_quota <= 0;
}

/** The stored part of a view: what {@link TokenRecord} holds, without balance and access time. */
export function recordOf(view: TokenView): TokenRecord {
  const { remain_quota: _remain, used_quota: _used, accessed_time: _accessed, owner_budget: _ownerBudget, ...record } = view;
  return record;
}
