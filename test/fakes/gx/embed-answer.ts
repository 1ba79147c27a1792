type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of an embedding request's `content`, parts joined. */
export function contentText(content: unknown): string | undefined {
  if (!isObject(content) || !Array.isArray(content.parts)) return undefined;
  return content.parts
    .filter(isObject)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * A unit vector derived from the text alone, so equal texts embed equally and tests can
 * compare values across calls. Nine decimals, like the values gx returns.
 */
export function embeddingValues(text: string, dimensions: number): number[] {
  let state = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) state = Math.imul(state ^ byte, 0x01000193) >>> 0;
  const raw: number[] = [];
  for (let index = 0; index < dimensions; index += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    raw.push(((mixed ^ (mixed >>> 14)) >>> 0) / 2147483648 - 1);
  }
  const length = Math.hypot(...raw) || 1;
  return raw.map((value) => Number((value / length).toFixed(9)));
}
