import { ambiguousCredentials } from '../errors/error-codes.js';

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

/**
 * Where one surface takes an API key besides `Authorization: Bearer sk-...`: header names
 * (lower case) and a query parameter. Every surface takes the Bearer form.
 */
export interface ApiKeyPlaces {
  headers: readonly string[];
  query?: string;
}

/**
 * The API key places of each model surface.
 *
 * - `openai` (`/v1` in the OpenAI formats): the Bearer form only.
 * - `native` (`/v1beta`): also `x-gx-api-key` (the spec's header) and `?key=`, and
 *   `x-goog-api-key`, the header of the real vendor whose wire format the native surface
 *   speaks. Its official clients (Gemini CLI, `@google/genai`) send their key only there
 *   when given a base URL and a key (fixture test/fixtures/agents/gemini-cli/plain.json). This
 *   is the one place the gateway reads a vendor's name on the wire; model ids and every other
 *   name stay the spec's.
 * - `messages` (the Messages format): also `x-api-key`, where Claude Code and the Anthropic SDK
 *   send their key (fixture test/fixtures/agents/claude-code/plain.json).
 */
export const apiKeyPlaces = {
  openai: { headers: [] },
  native: { headers: ['x-gx-api-key', 'x-goog-api-key'], query: 'key' },
  messages: { headers: ['x-api-key'] },
} as const satisfies Record<string, ApiKeyPlaces>;

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
 * The API key a request presents in the places of its surface ({@link apiKeyPlaces}). A
 * request whose places present different keys is refused with 400 `ambiguous_credentials`
 * instead of one silently winning; the same key in several places is accepted. Empty header
 * values and an empty `?key=` count as absent.
 */
export function readApiKey(request: CredentialSources, places: ApiKeyPlaces): string | undefined {
  const presented: Array<[string, string]> = [];
  const bearer = readBearerCredential(request);
  if (bearer !== undefined) presented.push(['Authorization', bearer]);
  for (const name of places.headers) {
    const header = single(headerLines(request, name).map((value) => value.trim()).filter((value) => value !== ''), name);
    if (header !== undefined) presented.push([name, header]);
  }
  if (places.query !== undefined) {
    const query = (request.query as Record<string, unknown> | undefined)?.[places.query];
    const values = (Array.isArray(query) ? query : [query]).filter((value): value is string => typeof value === 'string' && value !== '');
    const fromQuery = single(values, `${places.query} query parameter`);
    if (fromQuery !== undefined) presented.push([`the ${places.query} query parameter`, fromQuery]);
  }
  // `sk-` is optional, so `sk-abc…` and `abc…` are the same key.
  if (new Set(presented.map(([, key]) => key.replace(/^sk-/, ''))).size > 1) throw ambiguousCredentials(presented.map(([source]) => source).join(' and '));
  return presented[0]?.[1];
}

/** How a 401 for a missing key says where to send one on a surface. */
export function apiKeyHint(places: ApiKeyPlaces): string {
  const ways = ['Authorization: Bearer sk-...', ...places.headers, ...(places.query === undefined ? [] : [`?${places.query}=`])];
  return ways.length === 1 ? ways[0]! : `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)!}`;
}
