import { storedLoginToken } from '../session';

/**
 * A failed call: the HTTP status, the gateway's message, and the request field the message
 * names. The management API's messages start with the field they are about
 * (`name: at most 30 characters`, `unknown field "expire_time" in the body; …`), so a form can
 * put the message beside that field.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = fieldNamedBy(message);
  }
}

/** The top-level field a message names first: `model_limits[2]: …` names `model_limits`. */
export function fieldNamedBy(message: string): string | undefined {
  const unknown = /^unknown field "([A-Za-z_][\w]*)/.exec(message);
  if (unknown !== null) return unknown[1];
  return /^([A-Za-z_]\w*)(?:\[\d+\]|\.[\w.[\]]+)*: /.exec(message)?.[1];
}

let onSignedOut: (message: string) => void = () => {};

/** Who hears that the login token was refused (the app then shows the sign-in page). */
export function whenSignedOut(listener: (message: string) => void): void {
  onSignedOut = listener;
}

type Query = Record<string, string | number | boolean | undefined>;

/** `path` with the query's set values appended. */
export function withQuery(path: string, query: Query = {}): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') parameters.set(name, String(value));
  const text = parameters.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** Headers of a management call: the login token as a Bearer credential. */
export function loginHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const token = storedLoginToken();
  return token === undefined ? extra : { authorization: `Bearer ${token}`, ...extra };
}

/**
 * Calls the management API and answers the envelope's `data`. A failure (a status of 400 or
 * more, or `success: false`) throws an {@link ApiError}; a refused login token also signs
 * the console out.
 */
export async function api<Data>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<Data> {
  const headers = loginHeaders(options.body === undefined ? {} : { 'content-type': 'application/json' });
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch {
    throw new ApiError(0, 'the gateway did not answer; check that it is running and try again');
  }
  const envelope = (await response.json().catch(() => undefined)) as { success?: boolean; message?: string; data?: Data } | undefined;
  if (!response.ok || envelope?.success !== true) {
    const message = envelope?.message || `the gateway answered ${response.status} ${response.statusText}`;
    if (response.status === 401) onSignedOut(message);
    throw new ApiError(response.status, message);
  }
  return envelope.data as Data;
}

/** Every item of a paged list, page by page (at most `limit` items). */
export async function allPages<Item>(path: string, query: Query = {}, limit = 1000): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; items.length < limit; page += 1) {
    const data = await api<{ items: Item[]; total: number }>('GET', path, { query: { ...query, p: page, size: 100 } });
    items.push(...data.items);
    if (data.items.length < 100 || items.length >= data.total) break;
  }
  return items;
}
