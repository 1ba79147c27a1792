import { z } from 'zod';
import { budgetModes } from '../../core/budgets/budget-settings.js';
import { pageFields, positiveIntegerText } from './query-fields.js';

const maximumQuota = 500_000_000_000_000;
const latestTime = 253_402_300_799;

/** An integer from `minimum` to `maximum`; `hint` completes the message "expected an integer ...". */
export const integerField = (minimum: number, maximum: number, hint: string) =>
  z
    .number({ error: `expected an integer ${hint}` })
    .int({ error: `expected an integer ${hint}` })
    .min(minimum, { error: `expected an integer ${hint}` })
    .max(maximum, { error: `expected an integer ${hint}` });

// Characters a name is shown with in lists and terminals must not act on the display: C0 and
// C1 controls (NUL, ESC starting ANSI sequences, CR and LF forging lines, DEL), the line and
// paragraph separators, and the bidirectional controls (U+202E turns the text after it
// around). Everything else is ordinary text: letters of any script, emoji (with their zero
// width joiners), spaces.
const displayControl = /[\p{Cc}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
// A high surrogate not followed by a low one, or a low one not preceded by a high one: text
// that is not Unicode (no UTF-8 spelling), which clients and databases each mangle their own way.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const codePointOf = (character: string) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

const name = z
  .string({ error: 'expected a string' })
  .refine((value) => value.trim() !== '', { error: 'must not be empty' })
  .refine((value) => [...value].length <= 30, { error: 'at most 30 characters' })
  .superRefine((value, context) => {
    const control = displayControl.exec(value)?.[0];
    const problem =
      control !== undefined
        ? `${codePointOf(control)}, a control or bidirectional character`
        : loneSurrogate.test(value)
          ? 'a lone surrogate (half of a UTF-16 pair)'
          : undefined;
    if (problem === undefined) return;
    context.addIssue({
      code: 'custom',
      message: `must not contain control characters (U+0000-U+001F, U+007F-U+009F), line separators, bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) or lone surrogates; found ${problem}: remove it`,
    });
  });

const expiredTime = integerField(-1, latestTime, '(Unix seconds, or -1 for never)').refine((value) => value !== 0, {
  error: 'expected Unix seconds, or -1 for never',
});

const budgetLimit = integerField(0, maximumQuota, `of quota units from 0 to ${maximumQuota}, or null for no limit in this period`).nullable().optional();

/** A token's or a user's budgets: a limit per period (null removes it) and the mode. */
export const budgetFields = {
  budget_daily: budgetLimit,
  budget_weekly: budgetLimit,
  budget_monthly: budgetLimit,
  budget_mode: z.enum(budgetModes, { error: 'expected hard (refuse what does not fit) or soft (serve it and count the crossing)' }).optional(),
};

const tokenFields = {
  ...budgetFields,
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
const serverOwnedFields = ['key', 'user_id', 'used_quota', 'created_time', 'accessed_time', 'budgets'] as const;

const withoutServerOwned = (extra: readonly string[]) => (value: unknown) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of [...serverOwnedFields, ...extra]) delete copy[field];
  return copy;
};

/** The message of a body that is not a JSON object. */
export const jsonObject = { error: 'expected a JSON object' };

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

/** `p` (from 1) and `size` (1 to 100, default 20): how every list of the management API pages. */
export const pageQuery = z.object(pageFields);

/** GET /api/token/ */
export const listTokensQuery = pageQuery;

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
