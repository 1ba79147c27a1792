const lineBreak = /\r\n|\r|\n/;

/**
 * One server-sent event: an optional `event:` line, one `data:` line per line of `data`
 * (LF, CRLF and CR all start a new line, as a reader splits on each), then the blank line.
 * Line breaks in `event` are dropped, since an upstream-supplied name must not be able to
 * inject fields into the client's stream.
 */
export function encodeSseEvent(data: string, event?: string): string {
  const head = event === undefined ? '' : `event: ${singleLine(event)}\n`;
  if (!data.includes('\n') && !data.includes('\r')) return `${head}data: ${data}\n\n`;
  return `${head}data: ${data.split(lineBreak).join('\ndata: ')}\n\n`;
}

/** A comment frame such as `: ping\n\n`; readers ignore it, proxies see traffic (keepalive). */
export function sseComment(text: string): string {
  return `: ${text.split(lineBreak).join('\n: ')}\n\n`;
}

const singleLine = (text: string): string =>
  text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, '') : text;
