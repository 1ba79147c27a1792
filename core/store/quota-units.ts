/**
 * Throws unless `value` is a whole, non-negative, safe number of quota units. The drivers
 * check their arguments because a fraction or a negative amount would silently turn a
 * conditional decrement into an increment or leave non-integer balances behind.
 */
export function assertQuotaUnits(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer number of quota units, got ${value}`);
}
