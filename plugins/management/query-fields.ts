import { z } from 'zod';

/** A positive integer in a query string or path (`?p=2`, `/api/token/7`). */
export const positiveIntegerText = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, { error: 'expected a positive integer' })
  .transform(Number);

/** Paging of a list: `p` (default 1) and `size` (default 20, at most 100). */
export const pageFields = {
  p: positiveIntegerText.optional().transform((value) => value ?? 1),
  size: positiveIntegerText
    .optional()
    .transform((value) => value ?? 20)
    .refine((value) => value <= 100, { error: 'at most 100' }),
};
