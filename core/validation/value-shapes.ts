/**
 * Small checks of a parsed JSON value's shape, for hand-written fast paths over upstream
 * frames (the gx and gp stream decoders check a plain frame with these and leave anything
 * unusual to their lenient zod schema). `null` counts as absent, as the schemas' `nullish()`.
 */

/** A plain object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `undefined` or `null`. */
export const absent = (value: unknown): boolean => value === undefined || value === null;

/** Absent, or a string. */
export const stringOrAbsent = (value: unknown): boolean => absent(value) || typeof value === 'string';

/** Absent, or a finite number. */
export const numberOrAbsent = (value: unknown): boolean => absent(value) || (typeof value === 'number' && Number.isFinite(value));

/**
 * `table[key]` when `key` is one of the table's own entries, else undefined. A lookup keyed by
 * what a client or an upstream wrote (a file extension, a field name, a status) must not find
 * what every object inherits: `constructor`, `toString` and `__proto__` are not entries.
 */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
