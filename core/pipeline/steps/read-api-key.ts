import { ambiguousCredentials } from '../../errors/error-codes.js';

/** Where a credential may come from. */
export interface CredentialSources {
  /**
   * The header lines as received, name and value alternating (`IncomingMessage.rawHeaders`).
   * Not `headers`: Node keeps only the first of two `Authorization` lines there, which would
   * hide a second, different credential.
   */
  rawHeaders: readonly string[];
  query: unknown;
}

/** Every value of one header, once per line it was sent on. */
function headerLines(request: CredentialSources, name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]?.toLowerCase() === name) values.push(request.rawHeaders[index + 1] as string);
  }
  return values;
}

/** The credential of one source, or 400 `ambiguous_credentials` when its lines disagree. */
function single(values: string[], source: string): string | undefined {
  const distinct = new Set(values);
  if (distinct.size > 1) throw ambiguousCredentials(`two ${source} values`);
  return values[0];
}

/** The token of one `Authorization: Bearer <token>` line. */
const bearerToken = (line: string): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(line)?.[1];

/**
 * The token of `Authorization: Bearer <token>`, undefined when there is none or it is of
 * another scheme. Two `Authorization` lines that differ are refused, whatever their schemes.
 */
export function readBearerCredential(request: CredentialSources): string | undefined {
  const lines = headerLines(request, 'authorization');
  // Lines are compared by the token they carry, so `Bearer x` and `bearer  x` are the same key.
  single(lines.map((line) => bearerToken(line) ?? line), 'Authorization header');
  return lines[0] === undefined ? undefined : bearerToken(lines[0]);
}

/**
 * The API key a request presents. `/v1` routes take only `Authorization: Bearer sk-...`;
 * the native surface (`/v1beta`) also takes `x-gx-api-key` and `?key=`. A request whose
 * sources present different keys is refused with 400 `ambiguous_credentials` instead of one
 * silently winning; the same key in several places is accepted.
 */
export function readApiKey(request: CredentialSources, native: boolean): string | undefined {
  const bearer = readBearerCredential(request);
  if (!native) return bearer;
  const header = single(headerLines(request, 'x-gx-api-key').map((value) => value.trim()).filter((value) => value !== ''), 'x-gx-api-key');
  const query = (request.query as Record<string, unknown> | undefined)?.key;
  const queryValues = (Array.isArray(query) ? query : [query]).filter((value): value is string => typeof value === 'string' && value !== '');
  const fromQuery = single(queryValues, 'key query parameter');
  const presented = [
    ['Authorization', bearer],
    ['x-gx-api-key', header],
    ['the key query parameter', fromQuery],
  ].filter((entry): entry is [string, string] => entry[1] !== undefined);
  // `sk-` is optional, so `sk-abc…` and `abc…` are the same key.
  if (new Set(presented.map(([, key]) => key.replace(/^sk-/, ''))).size > 1) throw ambiguousCredentials(presented.map(([source]) => source).join(' and '));
  return presented[0]?.[1];
}
