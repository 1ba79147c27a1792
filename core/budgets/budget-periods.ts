/** The periods a budget can have: each starts at local midnight, in the configured time zone. */
export const budgetPeriods = ['daily', 'weekly', 'monthly'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

/** One period of a budget: when it starts and ends (milliseconds since the epoch), and the local date it starts on. */
export interface PeriodSpan {
  /** The first instant of the period. */
  start: number;
  /** The first instant of the next period: the reset. */
  end: number;
  /** The local date the period starts on, `YYYY-MM-DD`: names its window. */
  label: string;
}

/** A local calendar date. */
interface LocalDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

/** Throws a RangeError unless `timeZone` is an IANA time zone this runtime knows. */
export function assertTimeZone(timeZone: string): void {
  formatterOf(timeZone);
}

/**
 * The period of `period` that `now` falls in, in `timeZone`: a day from local midnight, a
 * week from Monday 00:00, a month from the 1st 00:00. Local times come from Intl, so daylight
 * saving is the runtime's time zone data: a day is 23 or 25 hours long when the clocks change,
 * and a midnight the clocks skip starts the day at its first instant.
 */
export function periodSpan(period: BudgetPeriod, now: number, timeZone: string): PeriodSpan {
  const today = localDateOf(now, timeZone);
  const first = firstDateOf(period, today);
  return { start: startOfLocalDate(first, timeZone), end: startOfLocalDate(nextFirstDate(period, first), timeZone), label: labelOf(first) };
}

function firstDateOf(period: BudgetPeriod, date: LocalDate): LocalDate {
  if (period === 'daily') return date;
  if (period === 'monthly') return { ...date, day: 1 };
  // getUTCDay: 0 is Sunday; a week starts on Monday.
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

function nextFirstDate(period: BudgetPeriod, first: LocalDate): LocalDate {
  if (period === 'daily') return addDays(first, 1);
  if (period === 'weekly') return addDays(first, 7);
  return first.month === 12 ? { year: first.year + 1, month: 1, day: 1 } : { year: first.year, month: first.month + 1, day: 1 };
}

function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

function labelOf(date: LocalDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/**
 * The first instant whose local date is `date`. Midnight read as UTC, moved by the zone's
 * offset just before and at the candidate: one of the two is the answer, the earliest whose
 * local date is `date` (two differ only around a change of the clocks).
 */
function startOfLocalDate(date: LocalDate, timeZone: string): number {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day);
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  const candidates = [first, second].filter((instant) => compareDates(localDateOf(instant, timeZone), date) === 0).sort((a, b) => a - b);
  // Neither lands on the date only when a change of the clocks skips its midnight: the later
  // candidate is then the first instant after the skipped hour.
  return candidates[0] ?? Math.max(first, second);
}

function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** Milliseconds the zone's local time is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = localPartsOf(instant, timeZone);
  const wholeSeconds = Math.floor(instant / 1000) * 1000;
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - wholeSeconds;
}

function localDateOf(instant: number, timeZone: string): LocalDate {
  const { year, month, day } = localPartsOf(instant, timeZone);
  return { year, month, day };
}

function localPartsOf(instant: number, timeZone: string) {
  const values: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) if (part.type !== 'literal') values[part.type] = Number(part.value);
  return { year: values.year as number, month: values.month as number, day: values.day as number, hour: (values.hour as number) % 24, minute: values.minute as number, second: values.second as number };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}
