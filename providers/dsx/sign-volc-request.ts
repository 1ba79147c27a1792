import { createHash, createHmac } from 'node:crypto';

const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

// RFC 3986: encodeURIComponent leaves !'()* alone, which the signature's canonical form encodes.
const encode = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

/** `YYYYMMDDTHHMMSSZ`. */
export const volcDate = (now: Date): string => now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * The headers of a request signed with Volcengine's V4 scheme (upstreams.md §3.5): the
 * canonical request (method, path, sorted query, the signed headers `content-type;host;
 * x-content-sha256;x-date`, the body's SHA-256), the string to sign over the scope
 * `<date>/<region>/<service>/request`, and the signature with the key derived from the secret
 * through the date, region, service and `request`.
 */
export function signVolcRequest(
  request: { method: string; url: string; body: string; contentType: string },
  credentials: { accessKeyId: string; secretAccessKey: string; region: string; service: string },
  now: Date,
): Record<string, string> {
  const url = new URL(request.url);
  const xDate = volcDate(now);
  const shortDate = xDate.slice(0, 8);
  const contentSha256 = sha256(request.body);
  const query = [...url.searchParams.entries()]
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const headers: Array<[string, string]> = [
    ['content-type', request.contentType],
    ['host', url.host],
    ['x-content-sha256', contentSha256],
    ['x-date', xDate],
  ];
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    url.pathname === '' ? '/' : url.pathname,
    query,
    headers.map(([name, value]) => `${name}:${value.trim()}\n`).join(''),
    signedHeaders,
    contentSha256,
  ].join('\n');
  const scope = `${shortDate}/${credentials.region}/${credentials.service}/request`;
  const stringToSign = ['HMAC-SHA256', xDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(credentials.secretAccessKey, shortDate), credentials.region), credentials.service), 'request');
  const signature = hmac(signingKey, stringToSign).toString('hex');
  return {
    'content-type': request.contentType,
    'x-date': xDate,
    'x-content-sha256': contentSha256,
    authorization: `HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
