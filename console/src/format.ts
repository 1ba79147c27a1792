// How the console writes numbers and times.

const unitsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Quota units with thousands separators: `1,250,000`. */
export function units(value: number): string {
  return unitsFormat.format(value);
}

/** US dollars with enough digits to show a small charge: `$2.50`, `$0.000356`. */
export function usd(value: number): string {
  if (value === 0) return '$0';
  const digits = Math.abs(value) >= 1 ? 2 : Math.min(8, 2 - Math.floor(Math.log10(Math.abs(value))) + 1);
  return `$${value.toFixed(digits).replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1')}`;
}

/** Quota units as US dollars, at the gateway's `quota_per_usd`. */
export function unitsAsUsd(value: number, quotaPerUsd: number): string {
  return usd(value / quotaPerUsd);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Unix seconds as local `YYYY-MM-DD HH:MM`, or `never` for -1. */
export function dateTime(seconds: number): string {
  if (seconds < 0) return 'never';
  if (seconds === 0) return '—';
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Unix seconds as the value of an `<input type="datetime-local">`. */
export function toDateTimeInput(seconds: number): string {
  return dateTime(seconds).replace(' ', 'T');
}

/** The value of an `<input type="datetime-local">` as Unix seconds, or undefined when empty or invalid. */
export function fromDateTimeInput(value: string): number | undefined {
  if (value === '') return undefined;
  const milliseconds = new Date(value).getTime();
  return Number.isNaN(milliseconds) ? undefined : Math.floor(milliseconds / 1000);
}

/** Milliseconds as `850 ms` or `2.4 s`. */
export function duration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined) return '—';
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** The median of some numbers, or null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
