import type { Clock } from '../di/injection-tokens.js';
import { periodSpan, type BudgetPeriod, type PeriodSpan } from './budget-periods.js';

/**
 * The current period of each kind, in the configured time zone, on the gateway's clock. A
 * span is worked out again only once its period has ended, so a budget check costs a clock
 * read and a comparison, not a time zone conversion.
 */
export class BudgetCalendar {
  readonly timeZone: string;
  readonly #clock: Clock;
  readonly #current = new Map<BudgetPeriod, PeriodSpan>();

  constructor(timeZone: string, clock: Clock) {
    this.timeZone = timeZone;
    this.#clock = clock;
  }

  /** Milliseconds since the epoch, on the gateway's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** The period of `period` that `now` (the clock's, by default) falls in. */
  span(period: BudgetPeriod, now = this.#clock.now()): PeriodSpan {
    const cached = this.#current.get(period);
    if (cached !== undefined && cached.start <= now && now < cached.end) return cached;
    const span = periodSpan(period, now, this.timeZone);
    this.#current.set(period, span);
    return span;
  }
}

