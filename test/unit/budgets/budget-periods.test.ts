import t from 'tap';
import { BudgetCalendar } from '../../../core/budgets/budget-calendar.js';
import { assertTimeZone, periodSpan, type BudgetPeriod } from '../../../core/budgets/budget-periods.js';
import { applyBudgetFields } from '../../../core/budgets/budget-settings.js';

const iso = (instant: number) => new Date(instant).toISOString();
const spanOf = (period: BudgetPeriod, at: string, zone: string) => {
  const span = periodSpan(period, Date.parse(at), zone);
  return { start: iso(span.start), end: iso(span.end), label: span.label };
};

t.test('in UTC a day starts at midnight, a week on Monday and a month on the 1st', async (t) => {
  t.same(spanOf('daily', '2026-12-02T15:00:00Z', 'UTC'), { start: '2026-12-02T00:00:00.000Z', end: '2026-12-03T00:00:00.000Z', label: '2026-12-02' });
  t.same(spanOf('weekly', '2026-12-02T15:00:00Z', 'UTC'), { start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z', label: '2026-11-30' });
  t.same(spanOf('weekly', '2026-12-06T23:59:59Z', 'UTC'), { start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z', label: '2026-11-30' }, 'Sunday is the last day of the week');
  t.same(spanOf('monthly', '2026-12-31T23:59:59Z', 'UTC'), { start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z', label: '2026-12-01' });
  t.same(spanOf('monthly', '2028-02-15T00:00:00Z', 'UTC'), { start: '2028-02-01T00:00:00.000Z', end: '2028-03-01T00:00:00.000Z', label: '2028-02-01' });
});

t.test('a period starts exactly at its boundary: the instant of midnight is in the new day', async (t) => {
  t.same(spanOf('daily', '2026-12-03T00:00:00Z', 'UTC').label, '2026-12-03');
  t.same(spanOf('daily', '2026-12-02T23:59:59.999Z', 'UTC').label, '2026-12-02');
});

t.test('in a zone with daylight saving the day the clocks change is 23 or 25 hours long', async (t) => {
  // Europe/Berlin: on 2026-03-29 at 02:00 the clocks go to 03:00; on 2026-10-25 at 03:00 back to 02:00.
  t.same(spanOf('daily', '2026-03-29T12:00:00Z', 'Europe/Berlin'), { start: '2026-03-28T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z', label: '2026-03-29' });
  t.same(spanOf('daily', '2026-10-25T12:00:00Z', 'Europe/Berlin'), { start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z', label: '2026-10-25' });
  t.same(spanOf('weekly', '2026-03-29T12:00:00Z', 'Europe/Berlin'), { start: '2026-03-22T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z', label: '2026-03-23' }, 'a week of 167 hours');
  t.same(spanOf('monthly', '2026-10-31T22:30:00Z', 'Europe/Berlin'), { start: '2026-09-30T22:00:00.000Z', end: '2026-10-31T23:00:00.000Z', label: '2026-10-01' });
  t.same(spanOf('daily', '2026-10-31T23:30:00Z', 'Europe/Berlin').label, '2026-11-01', 'local midnight, not UTC midnight, starts the day');
});

t.test('a day whose midnight the clocks skip starts at its first instant', async (t) => {
  // America/Santiago: on 2026-09-06 at 00:00 the clocks go to 01:00.
  t.same(spanOf('daily', '2026-09-06T12:00:00Z', 'America/Santiago'), { start: '2026-09-06T04:00:00.000Z', end: '2026-09-07T03:00:00.000Z', label: '2026-09-06' });
  t.same(spanOf('daily', '2026-09-05T12:00:00Z', 'America/Santiago').end, '2026-09-06T04:00:00.000Z', 'the day before ends where it starts');
});

t.test('time zones are checked with Intl: an unknown name is refused', async (t) => {
  t.doesNotThrow(() => assertTimeZone('Asia/Tokyo'));
  t.throws(() => assertTimeZone('Mars/Olympus_Mons'), RangeError);
});

t.test('the calendar moves to the next period when the clock passes the reset', async (t) => {
  let now = Date.parse('2026-12-02T23:59:59Z');
  const calendar = new BudgetCalendar('UTC', { now: () => now });
  t.equal(calendar.span('daily').label, '2026-12-02');
  now = Date.parse('2026-12-03T00:00:00Z');
  t.equal(calendar.span('daily').label, '2026-12-03');
  t.equal(calendar.span('weekly').label, '2026-11-30');
});

t.test('budget fields keep what is left out, remove what is null, and no limit left is no budget', async (t) => {
  const set = applyBudgetFields(undefined, { budget_daily: 100, budget_monthly: 2000 });
  t.same(set, { mode: 'hard', daily: 100, monthly: 2000 });
  t.same(applyBudgetFields(set, { budget_mode: 'soft', budget_daily: null }), { mode: 'soft', monthly: 2000 });
  t.same(applyBudgetFields(set, { budget_weekly: 0 }), { mode: 'hard', daily: 100, weekly: 0, monthly: 2000 }, 'a limit of 0 allows nothing in the period');
  t.equal(applyBudgetFields(set, { budget_daily: null, budget_monthly: null }), undefined);
  t.equal(applyBudgetFields(undefined, { budget_mode: 'soft' }), undefined, 'a mode alone limits nothing');
});
