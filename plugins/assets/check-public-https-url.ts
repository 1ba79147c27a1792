import ipaddr from 'ipaddr.js';
import { invalidRequest } from '../../core/errors/error-codes.js';
import { quoted } from '../../core/errors/client-text.js';

/**
 * Refuses an asset URL the upstream could not fetch from the internet: a local name
 * (`localhost`, a name without a dot) or an address literal outside the public unicast
 * ranges. Names are not resolved: the upstream fetches the URL, not the gateway.
 */
export function checkPublicHttpsUrl(value: string, param: string): void {
  const host = new URL(value).hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const refuse = () => invalidRequest(`${param}: ${quoted(host)} is not a public host; assets are created only from public https URLs`, { param });
  if (ipaddr.isValid(host)) {
    const address = ipaddr.parse(host);
    const v4 = address instanceof ipaddr.IPv4 ? address : address.isIPv4MappedAddress() ? address.toIPv4Address() : undefined;
    if (v4 !== undefined ? v4.range() !== 'unicast' : address.range() !== 'unicast') throw refuse();
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.')) throw refuse();
}
