import { createHash, createHmac } from 'node:crypto';
import type { RecordedRequest } from '../../../core/testing/index.js';
import { headerValue } from './ark-wire.js';

/** The access key pair the fake's asset API accepts, and the region it signs for. */
export interface VolcKeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();
const encode = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

const authorizationPattern = /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/**
 * Checks a request's Volcengine V4 signature (upstreams.md §3.5) the way the OpenAPI gateway
 * does: the `Authorization` header's form, the access key, `X-Content-Sha256` against the
 * body, then the signature recomputed over the signed headers with the secret key. Answers
 * the error code to send (`InvalidAuthorization`, `InvalidAccessKey`, `SignatureDoesNotMatch`),
 * or undefined when the signature holds.
 */
export function checkVolcSignature(request: RecordedRequest, keys: VolcKeyPair): string | undefined {
  const match = authorizationPattern.exec(headerValue(request.headers.authorization) ?? '');
  if (match === null) return 'InvalidAuthorization';
  const [, accessKeyId, shortDate, region, service, signedHeaders, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId) return 'InvalidAccessKey';
  const xDate = headerValue(request.headers['x-date']) ?? '';
  if (!xDate.startsWith(shortDate!)) return 'SignatureDoesNotMatch';
  if (headerValue(request.headers['x-content-sha256']) !== sha256(request.raw)) return 'SignatureDoesNotMatch';
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${(headerValue(request.headers[name]) ?? '').trim()}\n`).join('');
  const query = Object.entries(request.query)
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalRequest = [request.method, request.path, query, canonicalHeaders, signedHeaders, sha256(request.raw)].join('\n');
  const scope = `${shortDate}/${region}/${service}/request`;
  const stringToSign = ['HMAC-SHA256', xDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(keys.secretAccessKey, shortDate!), region!), service!), 'request');
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') === signature ? undefined : 'SignatureDoesNotMatch';
}
