import { TokenStatus, type TokenRecord } from '../../core/tokens/token-record.js';

/** An enabled token record of user 1 with its fields derived from `id`; `fields` override. */
export const testTokenRecord = (id: number, fields: Partial<TokenRecord> = {}): TokenRecord => ({
  id,
  user_id: 1,
  name: `token ${id}`,
  sealed_key: `sealed-${id}`,
  key_hash: `hash-${id}`,
  status: TokenStatus.enabled,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: [],
  group: '',
  cross_group_retry: false,
  expired_time: -1,
  created_time: 1_700_000_000,
  ...fields,
});
