/** A value read by a schema, or why it is not one (the schema's error, for the log). */
export type SchemaRead<Output> = { success: true; data: Output } | { success: false; error: unknown };

/**
 * `json` read by a lenient `schema`, with a hand check in front: a value `isPlain` accepts,
 * the common shape checked field by field, is taken as it is; anything else goes through the
 * schema, which judges it and reads it. For stream frames, where the schema on every frame is
 * one of the largest costs. The hand check must accept only what the schema accepts, so the
 * leniency and the errors stay the schema's.
 */
export function readWithHandCheck<Output>(
  json: unknown,
  isPlain: (json: unknown) => json is Output,
  schema: { safeParse(value: unknown): { success: true; data: Output } | { success: false; error: unknown } },
): SchemaRead<Output> {
  if (isPlain(json)) return { success: true, data: json };
  const parsed = schema.safeParse(json);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
}
