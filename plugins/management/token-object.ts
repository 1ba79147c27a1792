import type { TokenView } from '../../core/tokens/token-record.js';
import { maskKey } from '../../core/tokens/mask-key.js';

/** A token as spec part 1's token object, with the key masked. */
export function toTokenObject(token: TokenView, plainKey: string) {
  return {
    id: token.id,
    user_id: token.user_id,
    name: token.name,
    key: maskKey(plainKey),
    status: token.status,
    remain_quota: token.remain_quota,
    used_quota: token.used_quota,
    unlimited_quota: token.unlimited_quota,
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits.join(','),
    allow_ips: token.allow_ips.join(','),
    group: token.group,
    cross_group_retry: token.cross_group_retry,
    expired_time: token.expired_time,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
  };
}
