import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { GatewayError } from '../errors/gateway-error.js';

// A URL an upstream gave is the upstream's doing, not the client's: these are 502s about the
// upstream, where the media errors are 400s telling the client what to change.

const allowHint = 'an operator can allow a host in security.media.allow_hosts';

const rangeNames: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address, where cloud metadata services answer',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
};

/**
 * What the refused host is: an address literal by its range (an IPv4-mapped IPv6 address as
 * the IPv4 address it carries); a name without its addresses, which stay private.
 */
function refusedPlace(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return `${host}, a name that resolves to a private, loopback, link-local or otherwise non-public address`;
  const address = ipaddr.process(host);
  return `${address.toString()}, ${rangeNames[address.range()] ?? 'a non-public address'}`;
}

/** 502 `upstream_url_refused`: the upstream gave a URL the gateway does not fetch, by its form. */
export const upstreamUrlRefused = (problem: string, cause?: unknown) =>
  new GatewayError(502, 'upstream_url_refused', `the upstream gave a URL the gateway does not fetch: the URL ${problem}`, { cause, retryable: false });

/** 502 `upstream_url_refused`: the upstream's URL (or a redirect from it) leads to an address the SSRF guard refuses. */
export function upstreamUrlNotAllowed(url: URL, redirected: boolean, cause: unknown): GatewayError {
  const subject = redirected ? 'the upstream redirected the gateway to' : 'the upstream pointed the gateway at';
  return new GatewayError(
    502,
    'upstream_url_refused',
    `${subject} ${refusedPlace(url)}; the gateway fetches only public addresses, whoever gives the URL (${allowHint})`,
    { cause, retryable: false },
  );
}

/** 502 `upstream_invalid_response`: a redirect of the upstream's URL that cannot be followed. */
export const upstreamRedirectFailed = (problem: string, cause?: unknown) =>
  new GatewayError(502, 'upstream_invalid_response', `the upstream's URL ${problem}`, { cause, retryable: true });
