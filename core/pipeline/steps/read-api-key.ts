/** Where an API key may come from on a model route. */
export interface CredentialSources {
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
}

/**
 * The API key a request presents. `/v1` takes only `Authorization: Bearer sk-...`;
 * `/v1beta` (the gx native surface) also takes `x-gx-api-key` and `?key=`, in that order.
 */
export function readApiKey(request: CredentialSources, native: boolean): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1] !== undefined) return match[1];
  }
  if (!native) return undefined;
  const header = request.headers['x-gx-api-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.key === 'string' && query.key !== '') return query.key;
  return undefined;
}
