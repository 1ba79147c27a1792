/**
 * JSON in the style of gx stream events: a space after every colon, none after a comma
 * (`{"parts": [{"text": "1, 2, 3"}],"role": "model"}`), as in the byte-exact capture
 * fixtures/gx/gemini-stream-single-chunk.raw.sse (upstreams.md §1.4).
 */
export function googleCompactJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return googleCompactJson((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : googleCompactJson(item))).join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function') continue;
    members.push(`${JSON.stringify(key)}: ${googleCompactJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * JSON in the style of gx non-stream bodies: two-space indentation (upstreams.md §1.1,
 * after a recorded response). The trailing newline is a guess; clients must not rely on it.
 */
export function googlePrettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
