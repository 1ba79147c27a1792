import type { PiecewiseAnswer } from '../../../core/testing/index.js';

/** The headers the upstream sends with every API answer (upstreams.md §1.1, js-genai recordings). */
function veoHeaders(contentType: string, started: number): Record<string, string> {
  return {
    'content-type': contentType,
    vary: 'Origin, X-Origin, Referer',
    server: 'scaffolding on HTTPServer2',
    'x-content-type-options': 'nosniff',
    'server-timing': `gfet4t7; dur=${Date.now() - started}`,
  };
}

/** A whole body with its length, as a non-stream answer goes out. */
export function textAnswer(status: number, text: string, started: number, headers: Record<string, string> = {}): PiecewiseAnswer {
  return { status, headers: { ...veoHeaders('application/json; charset=UTF-8', started), 'content-length': String(Buffer.byteLength(text)), ...headers }, pieces: [text], streamed: false };
}

/** A JSON body, pretty-printed with two spaces as the upstream does (upstreams.md §1.1). */
export function jsonAnswer(status: number, body: unknown, started: number): PiecewiseAnswer {
  return textAnswer(status, `${JSON.stringify(body, null, 2)}\n`, started);
}

/** The 302 of a download to the signed storage address (upstreams.md §1.11). */
export function redirectAnswer(location: string, started: number): PiecewiseAnswer {
  return textAnswer(302, '', started, { location, 'content-type': 'text/html; charset=UTF-8' });
}

export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
