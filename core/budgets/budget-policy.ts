import type { GatewayConfig } from '../config/config-schema.js';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import type { BudgetWindow, StoreBackend } from '../store/store-backend.js';
import type { TokenView } from '../tokens/token-record.js';
import { BudgetCalendar } from './budget-calendar.js';
import type { BudgetPeriod, PeriodSpan } from './budget-periods.js';
import { limitedPeriods, type BudgetMode, type BudgetSettings } from './budget-settings.js';

/** Whose budget: a token's own, or its user's over all the user's tokens. */
export type BudgetScope = 'token' | 'user';

/** One period's limit that applies to a request, with the period it is in now. */
export interface ApplicableBudget {
  scope: BudgetScope;
  /** The token's or the user's id. */
  id: number;
  period: BudgetPeriod;
  limit: number;
  mode: BudgetMode;
  span: PeriodSpan;
  /** The store's window for this period: what the reservation is counted in. */
  window: BudgetWindow;
}

/** A budget as the token object and `GET /api/user/self` show it. */
export interface BudgetStatus {
  period: BudgetPeriod;
  limit: number;
  mode: BudgetMode;
  /** Units counted in the current period: charged, and held by requests in flight. */
  used: number;
  /** `limit - used`, never below 0. */
  remain: number;
  /** Unix seconds: when the period ends and the count starts again from 0. */
  resets_at: number;
}

const noBudgets: readonly ApplicableBudget[] = Object.freeze([]);

/** The key of a period's window in the store: who, which period, and the local date it starts on. */
export function budgetWindowKey(scope: BudgetScope, id: number, period: BudgetPeriod, span: PeriodSpan): string {
  return `${scope}:${id}:${period}:${span.label}`;
}

/**
 * Which budget windows a request of a token is counted in: the token's own periods and its
 * user's, each in its current period on the gateway's clock, in `budgets.time_zone`. A token
 * without budgets whose user has none costs two property reads.
 */
export class BudgetPolicy {
  readonly calendar: BudgetCalendar;

  constructor(@inject(InjectionTokens.config) config: GatewayConfig, @inject(InjectionTokens.clock) clock: Clock) {
    this.calendar = new BudgetCalendar(config.budgets.time_zone, clock);
  }

  /** The budgets a request of `token` must fit in now (empty for none). */
  applicable(token: TokenView): readonly ApplicableBudget[] {
    if (token.budget === undefined && token.owner_budget === undefined) return noBudgets;
    const now = this.calendar.now();
    return [...this.#of('token', token.id, token.budget, now), ...this.#of('user', token.user_id, token.owner_budget, now)];
  }

  #of(scope: BudgetScope, id: number, settings: BudgetSettings | undefined, now: number): ApplicableBudget[] {
    return limitedPeriods(settings).map(({ period, limit }) => {
      const span = this.calendar.span(period, now);
      const mode = (settings as BudgetSettings).mode;
      return { scope, id, period, limit, mode, span, window: { key: budgetWindowKey(scope, id, period, span), limit, hard: mode === 'hard', endsAt: span.end } };
    });
  }

  /** Each budget of `settings` (of the token or user `id`) with what its current period has counted. */
  async statuses(scope: BudgetScope, id: number, settings: BudgetSettings | undefined, backend: StoreBackend): Promise<BudgetStatus[]> {
    const budgets = this.#of(scope, id, settings, this.calendar.now());
    if (budgets.length === 0) return [];
    const counted = await backend.readBudgetWindows(budgets.map((budget) => budget.window.key));
    return budgets.map((budget) => {
      const used = counted.get(budget.window.key) ?? 0;
      return { period: budget.period, limit: budget.limit, mode: budget.mode, used, remain: Math.max(0, budget.limit - used), resets_at: Math.floor(budget.span.end / 1000) };
    });
  }
}
