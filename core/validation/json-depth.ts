/**
 * How deeply JSON a client sends may nest. The gateway's translations, its estimators and
 * `JSON.stringify` walk values recursively; past a few thousand levels they exhaust the
 * stack. The request body is held to `server.max_json_depth`; JSON a client puts inside a
 * string (tool-call arguments, a tool's result, a multipart field holding JSON) is held to
 * {@link maxEmbeddedJsonDepth}.
 */

/** The default of `server.max_json_depth`: far above any real request, far below the stack. */
export const defaultMaxJsonDepth = 64;

/**
 * The highest `server.max_json_depth` may be set: the depth at which the gateway's
 * recursive steps (`JSON.stringify` among them) are still known to be safe.
 */
export const maxJsonDepthCeiling = 1000;

/** The depth JSON embedded in a string field may reach (tool-call arguments, tool results, multipart JSON fields). */
export const maxEmbeddedJsonDepth = 64;

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep (`{}` and `[]`
 * are one level, a scalar none). One pass, a level at a time, without recursion, and it
 * stops at the first level past the limit; a request within the limit costs one visit per
 * object or array it holds, strings and numbers none.
 */
export function exceedsJsonDepth(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let level: object[] = [value];
  for (let depth = 1; level.length > 0; depth += 1) {
    if (depth > limit) return true;
    const next: object[] = [];
    for (const container of level) {
      if (Array.isArray(container)) {
        for (const item of container) if (typeof item === 'object' && item !== null) next.push(item);
      } else {
        for (const key in container) {
          const item = (container as Record<string, unknown>)[key];
          if (typeof item === 'object' && item !== null) next.push(item);
        }
      }
    }
    level = next;
  }
  return false;
}

/**
 * `text` parsed as JSON when it is JSON no deeper than {@link maxEmbeddedJsonDepth};
 * `{ kind: 'invalid' }` when it is not JSON, `{ kind: 'too-deep' }` when it nests deeper.
 * For JSON a client sends inside a string, which the body's own depth check cannot see.
 */
export function parseEmbeddedJson(text: string): { kind: 'json'; value: unknown } | { kind: 'invalid' } | { kind: 'too-deep' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid' };
  }
  return exceedsJsonDepth(value, maxEmbeddedJsonDepth) ? { kind: 'too-deep' } : { kind: 'json', value };
}
