import ipaddr from 'ipaddr.js';

/** An address range: a base address and a prefix length. */
export type IpRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses one allow-list entry, an address or a CIDR range; undefined when it is neither. */
export function parseIpRange(entry: string): IpRange | undefined {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** True when `address` falls in one of the ranges; IPv4-mapped IPv6 addresses match IPv4 ranges. */
export function ipInRanges(address: string, ranges: readonly IpRange[]): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
}
