import { assertQuotaUnits } from './quota-units.js';
import type { BudgetClaim, HoldLease, QuotaReservation } from './store-backend.js';

/**
 * Throws unless `budget` is a claim a driver can count: whole limits of at least 0, distinct
 * window keys, and a lease to record the windows with (a hold without one could never give
 * its units back to the windows).
 */
export function assertBudgetClaim(budget: BudgetClaim | undefined, lease: HoldLease | undefined): void {
  if (budget === undefined || budget.windows.length === 0) return;
  if (lease === undefined) throw new RangeError('a reservation counted in budget windows needs a lease to record them with');
  const keys = new Set<string>();
  for (const window of budget.windows) {
    assertQuotaUnits('a budget window limit', window.limit);
    if (keys.has(window.key)) throw new RangeError(`budget window ${window.key} is claimed twice`);
    keys.add(window.key);
  }
}

/**
 * Decides a claim on the windows' current counts (`used[i]` for `budget.windows[i]`): the
 * refusal of the first hard window `amount` does not fit, or undefined when every one fits.
 * For the drivers that decide in the gateway's process (memory, SQLite); Redis and PostgreSQL
 * decide the same way in their scripts.
 */
export function refusedBudget(budget: BudgetClaim, amount: number, used: readonly number[]): QuotaReservation['budget'] | undefined {
  for (const [index, window] of budget.windows.entries()) {
    const counted = used[index] ?? 0;
    if (window.hard && counted + amount > window.limit) return { refused: index, used: counted };
  }
  return undefined;
}
