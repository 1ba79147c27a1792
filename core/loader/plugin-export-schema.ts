import { z } from 'zod';

/** What a plugin module's default export must look like; checked before anything is called. */
export const pluginExportSchema = z.object({
  apiVersion: z.literal(1, { error: 'apiVersion must be 1' }),
  name: z.string({ error: 'name must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'name must be letters, digits, ".", "_" or "-"' }),
  options: z.custom<z.ZodType>((value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function', {
    error: 'options must be a zod schema',
  }),
  create: z.custom<(...parameters: unknown[]) => unknown>((value) => typeof value === 'function', { error: 'create must be a function' }),
});
