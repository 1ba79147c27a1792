import { z } from 'zod';

const isFunction = (value: unknown) => typeof value === 'function';

/** A version 2 plugin's `prepare`: absent, or an object of one function per operation it prepares. */
const isPrepareSteps = (value: unknown) => value === undefined || (typeof value === 'object' && value !== null && Object.values(value).every(isFunction));

/**
 * What a plugin module's default export must look like; checked before anything is called.
 * Contract versions 1 and 2 load. A version 1 plugin is checked as it always was: core never
 * calls a `prepare` of one, so it is not looked at.
 */
export const pluginExportSchema = z
  .object({
    apiVersion: z.union([z.literal(1), z.literal(2)], { error: 'apiVersion must be 1 or 2' }),
    name: z.string({ error: 'name must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'name must be letters, digits, ".", "_" or "-"' }),
    options: z.custom<z.ZodType>((value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function', {
      error: 'options must be a zod schema',
    }),
    create: z.custom<(...parameters: unknown[]) => unknown>(isFunction, { error: 'create must be a function' }),
    prepare: z.unknown().optional(),
    maxResponseMb: z.number({ error: 'maxResponseMb must be a number of MiB' }).int({ error: 'maxResponseMb must be a whole number of MiB' }).min(1, { error: 'maxResponseMb must be at least 1' }).max(4096, { error: 'maxResponseMb must be at most 4096' }).optional(),
  })
  .refine((plugin) => plugin.apiVersion === 1 || isPrepareSteps(plugin.prepare), { error: 'prepare must be an object of one function per operation' });
