import { z } from 'zod';

const maxSeed = 2_147_483_647;

/** A yes or no setting of the client's body. */
export const booleanField = z.boolean({ error: 'expected true or false' });

/** A seed the upstream takes (spec part 2: a whole number from 0 to 2147483647). */
export const seedField = z
  .int({ error: `expected a whole number from 0 to ${maxSeed}` })
  .min(0, { error: `expected a whole number from 0 to ${maxSeed}` })
  .max(maxSeed, { error: `expected a whole number from 0 to ${maxSeed}` });
