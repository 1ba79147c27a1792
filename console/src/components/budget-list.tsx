import type { BudgetStatus } from '../api/types';
import { dateTime, units, unitsAsUsd } from '../format';

const periodNames: Record<BudgetStatus['period'], string> = { daily: 'Today', weekly: 'This week', monthly: 'This month' };

/**
 * Each budget's current period: what it counted of its limit, what is left and when it resets
 * (local time); in USD when the gateway's `quota_per_usd` is known. Nothing for no budgets.
 */
export function BudgetList(props: { budgets: readonly BudgetStatus[]; quotaPerUsd: number | undefined; empty?: string }) {
  const { budgets, quotaPerUsd } = props;
  if (budgets.length === 0) return props.empty === undefined ? null : <span class="hint">{props.empty}</span>;
  const amount = (value: number) => (quotaPerUsd === undefined ? `${units(value)} units` : unitsAsUsd(value, quotaPerUsd));
  return (
    <ul class="budgets">
      {budgets.map((budget) => (
        <li key={budget.period} data-period={budget.period} class={budget.remain === 0 ? 'spent' : ''}>
          <span>
            {periodNames[budget.period]}: {amount(budget.used)} of {amount(budget.limit)} used, {amount(budget.remain)} left
            {budget.mode === 'soft' ? ' (soft)' : ''}
          </span>{' '}
          <span class="hint">resets {dateTime(budget.resets_at)}</span>
        </li>
      ))}
    </ul>
  );
}
