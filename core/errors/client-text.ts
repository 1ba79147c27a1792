/** The most characters of a client's own text (a field name, a file name, a model id) an error message repeats. */
export const maxQuotedCharacters = 100;

/**
 * A text the client sent, cut to at most `max` characters (the last one `…`) when longer,
 * so that an error can point at the text without echoing a megabyte of it back (and into
 * the log). A surrogate pair is never split.
 */
export function clipped(text: string, max = maxQuotedCharacters): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A text the client sent, quoted for an error message: {@link clipped}, in double quotes,
 * with quotes, backslashes and control characters escaped as in JSON, so a name with a line
 * break or a quote in it cannot make the message say something else.
 */
export function quoted(text: string, max = maxQuotedCharacters): string {
  return JSON.stringify(clipped(text, max));
}
