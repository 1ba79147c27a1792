const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Deep-merges `extra_body.gx` into the native request (spec part 1, "extra_body.gx
 * passthrough"): where both sides hold an object the two merge recursively; a scalar, an
 * array or null in the patch replaces the base value; base keys the patch lacks are kept.
 * Neither input is changed. `__proto__` keys are skipped, so client JSON cannot reach a
 * prototype.
 */
export function mergeGxPassthrough(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    const current = result[key];
    result[key] = isPlainObject(current) && isPlainObject(value) ? mergeGxPassthrough(current, value) : value;
  }
  return result;
}
