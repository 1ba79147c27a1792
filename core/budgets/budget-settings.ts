import type { BudgetPeriod } from './budget-periods.js';

/** What a budget does with a request whose estimate does not fit the period's remainder. */
export const budgetModes = ['hard', 'soft'] as const;
export type BudgetMode = (typeof budgetModes)[number];

/**
 * The budgets of a token or a user: a limit in quota units for any of the periods, and one
 * mode for them all. `hard` refuses a request whose estimate does not fit what is left of a
 * period (429 `budget_exceeded`); `soft` serves it, and counts and marks the crossing.
 */
export interface BudgetSettings {
  daily?: number;
  weekly?: number;
  monthly?: number;
  mode: BudgetMode;
}

/** The periods `settings` limits, with their limits, in the order daily, weekly, monthly. */
export function limitedPeriods(settings: BudgetSettings | undefined): Array<{ period: BudgetPeriod; limit: number }> {
  if (settings === undefined) return [];
  const limited: Array<{ period: BudgetPeriod; limit: number }> = [];
  if (settings.daily !== undefined) limited.push({ period: 'daily', limit: settings.daily });
  if (settings.weekly !== undefined) limited.push({ period: 'weekly', limit: settings.weekly });
  if (settings.monthly !== undefined) limited.push({ period: 'monthly', limit: settings.monthly });
  return limited;
}

/**
 * The fields a client sets budgets with (the token API, the user API, a config user):
 * `budget_daily`, `budget_weekly`, `budget_monthly` (quota units; null removes one) and
 * `budget_mode`.
 */
export interface BudgetFields {
  budget_daily?: number | null;
  budget_weekly?: number | null;
  budget_monthly?: number | null;
  budget_mode?: BudgetMode;
}

/**
 * `current` with the fields applied: a field left out keeps its period's limit, null removes
 * it. Undefined when no period is left limited (the mode alone is no budget).
 */
export function applyBudgetFields(current: BudgetSettings | undefined, fields: BudgetFields): BudgetSettings | undefined {
  const pick = (value: number | null | undefined, kept: number | undefined) => (value === undefined ? kept : value === null ? undefined : value);
  const next: BudgetSettings = { mode: fields.budget_mode ?? current?.mode ?? 'hard' };
  const daily = pick(fields.budget_daily, current?.daily);
  const weekly = pick(fields.budget_weekly, current?.weekly);
  const monthly = pick(fields.budget_monthly, current?.monthly);
  if (daily !== undefined) next.daily = daily;
  if (weekly !== undefined) next.weekly = weekly;
  if (monthly !== undefined) next.monthly = monthly;
  return limitedPeriods(next).length === 0 ? undefined : next;
}
