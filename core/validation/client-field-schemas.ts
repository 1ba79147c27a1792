import { z } from 'zod';

// Strict zod pieces for the fields many families' client bodies share, each refusal worded
// the same way wherever the field appears.

/** The zod error option naming a field's allowed values: `{error: 'expected low, medium or high'}`. */
export const expectedOneOf = (values: readonly (string | number)[]) => ({ error: `expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` });

/** A yes or no field. */
export const booleanField = z.boolean({ error: 'expected true or false' });

/** A whole number from `low` to `high`; every refusal names the range. */
export const wholeNumberField = (low: number, high: number) => {
  const message = `expected a whole number from ${low} to ${high}`;
  return z.number({ error: message }).int({ error: message }).min(low, { error: message }).max(high, { error: message });
};

/** The largest seed the upstreams take (spec part 2, Limits: 0 to 2147483647). */
export const maxSeed = 2_147_483_647;

/** A generation seed: a whole number from 0 to {@link maxSeed}. */
export const seedField = wholeNumberField(0, maxSeed);
