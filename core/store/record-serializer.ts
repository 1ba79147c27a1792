import { Buffer } from 'node:buffer';

/**
 * Where keyv's own format differs from plain JSON: a string value that starts with `:` (keyv
 * escapes it with one more `:`, because `:base64:` marks a Buffer). Such a string opens right
 * after `:`, `,` or `[` in the JSON text; a `"` inside a string is always escaped, so this
 * never matches inside one. A key that starts with `:` matches too, which only costs the slow
 * path. A Buffer shows in plain JSON as its `toJSON` object.
 */
const keyvMarkers = /[,:[]":|^":|\{"type":"Buffer","data":\[/;

/** keyv's escaping as a `JSON.stringify` replacer: `this` holds the value before its `toJSON`. */
function keyvReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (Buffer.isBuffer(original)) return `:base64:${original.toString('base64')}`;
  if (typeof value === 'string' && value.startsWith(':')) return `:${value}`;
  return value;
}

/** keyv's unescaping as a `JSON.parse` reviver. */
function keyvReviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith(':')) return value;
  return value.startsWith(':base64:') ? Buffer.from(value.slice(8), 'base64') : value.slice(1);
}

/**
 * keyv's serializer (`@keyv/serialize`, the format every record in the store is written in),
 * for the same text at a fraction of the cost: keyv's walks the value in JavaScript, string
 * by string, which was the largest cost of keeping a translated Responses answer's
 * conversation in the benchmark's profile. Plain `JSON.stringify` gives the same text unless
 * the value holds a string starting with `:` or a Buffer; only then is it written again with
 * keyv's escaping.
 */
export function serializeRecord(data: unknown): string {
  const text = JSON.stringify(data) as string | undefined;
  if (text !== undefined && !keyvMarkers.test(text)) return text;
  return (JSON.stringify(data, keyvReplacer) as string | undefined) ?? 'null';
}

/** keyv's deserializer, for the text {@link serializeRecord} (or keyv itself) wrote: a reviver only where an escaped string is. */
export function deserializeRecord<Value>(text: string): Value {
  return (keyvMarkers.test(text) ? JSON.parse(text, keyvReviver) : JSON.parse(text)) as Value;
}

/** The keyv options of a store namespace: keyv's record format, through the functions above. */
export const recordFormat = { serialize: serializeRecord, deserialize: deserializeRecord } as const;
