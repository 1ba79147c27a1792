import { z } from 'zod';

const maximumQuota = 500_000_000_000_000;
const latestTime = 253_402_300_799;

const positiveIntegerText = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, { error: 'expected a positive integer' })
  .transform(Number);

const integerField = (minimum: number, maximum: number, hint: string) =>
  z
    .number({ error: `expected an integer ${hint}` })
    .int({ error: `expected an integer ${hint}` })
    .min(minimum, { error: `expected an integer ${hint}` })
    .max(maximum, { error: `expected an integer ${hint}` });

const name = z
  .string({ error: 'expected a string' })
  .refine((value) => value.trim() !== '', { error: 'must not be empty' })
  .refine((value) => [...value].length <= 30, { error: 'at most 30 characters' });

const expiredTime = integerField(-1, latestTime, '(Unix seconds, or -1 for never)').refine((value) => value !== 0, {
  error: 'expected Unix seconds, or -1 for never',
});

const tokenFields = {
  expired_time: expiredTime.optional(),
  remain_quota: integerField(0, maximumQuota, `from 0 to ${maximumQuota}`).optional(),
  unlimited_quota: z.boolean({ error: 'expected true or false' }).optional(),
  model_limits_enabled: z.boolean({ error: 'expected true or false' }).optional(),
  model_limits: z
    .array(
      z
        .string({ error: 'expected a model name' })
        .min(1, { error: 'must not be empty' })
        .max(200, { error: 'at most 200 characters' })
        // The token object lists model_limits comma-separated, so a comma would split a name in two.
        .refine((model) => !model.includes(','), { error: 'a model name cannot contain a comma; give each model as its own array item' }),
      {
      error: 'expected an array of model names',
    })
    .max(1000, { error: 'at most 1000 models' })
    .optional(),
  allow_ips: z.string({ error: 'expected a comma-separated string of IP addresses or CIDR ranges' }).max(8192, { error: 'at most 8192 characters' }).optional(),
  group: z.string({ error: 'expected a group name' }).max(64, { error: 'at most 64 characters' }).optional(),
  cross_group_retry: z.boolean({ error: 'expected true or false' }).optional(),
};

/** Fields clients echo back from a token object; the server owns them, so they are ignored on input. */
const serverOwnedFields = ['key', 'user_id', 'used_quota', 'created_time', 'accessed_time'] as const;

const withoutServerOwned = (extra: readonly string[]) => (value: unknown) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of [...serverOwnedFields, ...extra]) delete copy[field];
  return copy;
};

const jsonObject = { error: 'expected a JSON object' };

/** POST /api/token/ */
export const createTokenBody = z.preprocess(withoutServerOwned(['id', 'status']), z.strictObject({ name, ...tokenFields }, jsonObject));

/** PUT /api/token/ */
export const updateTokenBody = z.preprocess(
  withoutServerOwned([]),
  z.strictObject(
    {
      id: integerField(1, Number.MAX_SAFE_INTEGER, 'of 1 or more'),
      name: name.optional(),
      status: z
        .union([z.literal(1), z.literal(2)], { error: 'expected 1 (enabled) or 2 (disabled); statuses 3 and 4 are set by the gateway' })
        .optional(),
      ...tokenFields,
    },
    jsonObject,
  ),
);

/** PUT /api/token/?status_only= */
export const updateTokenQuery = z.object({
  status_only: z
    .enum(['true', 'false', '1', '0', ''], { error: 'expected true or false' })
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

const pageFields = {
  p: positiveIntegerText.optional().transform((value) => value ?? 1),
  size: positiveIntegerText
    .optional()
    .transform((value) => value ?? 20)
    .refine((value) => value <= 100, { error: 'at most 100' }),
};

/** GET /api/token/ */
export const listTokensQuery = z.object(pageFields);

/** GET /api/token/search */
export const searchTokensQuery = z.object({
  keyword: z.string({ error: 'expected a single string' }).max(30, { error: 'at most 30 characters' }).optional().default(''),
  token: z.string({ error: 'expected a single string' }).max(60, { error: 'at most 60 characters' }).optional().default(''),
  ...pageFields,
});

/** `:id` in a path. */
export const tokenIdParams = z.object({ id: positiveIntegerText });

/** POST /api/token/batch and /api/token/batch/keys */
export const tokenIdsBody = z.strictObject(
  {
    ids: z
      .array(integerField(1, Number.MAX_SAFE_INTEGER, 'of 1 or more'), { error: 'expected an array of token ids' })
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'at most 100 ids' }),
  },
  jsonObject,
);
