import type { BudgetStatus } from '../../core/budgets/budget-policy.js';
import type { BudgetSettings } from '../../core/budgets/budget-settings.js';
import type { TokenView } from '../../core/tokens/token-record.js';
import { maskKey } from '../../core/tokens/mask-key.js';

/**
 * The budget fields of a token or a user object: each period's limit as set (null for none),
 * the mode, and `budgets`, each limited period with what its current period counted.
 */
export function budgetFieldsOf(settings: BudgetSettings | undefined, budgets: readonly BudgetStatus[]) {
  return {
    budget_daily: settings?.daily ?? null,
    budget_weekly: settings?.weekly ?? null,
    budget_monthly: settings?.monthly ?? null,
    budget_mode: settings?.mode ?? 'hard',
    budgets,
  };
}

/** A token as spec part 1's token object, with the key masked, and its budgets (see {@link budgetFieldsOf}). */
export function toTokenObject(token: TokenView, plainKey: string, budgets: readonly BudgetStatus[] = []) {
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
    ...budgetFieldsOf(token.budget, budgets),
  };
}
