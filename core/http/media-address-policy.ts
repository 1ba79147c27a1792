import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ipInRanges, parseIpRange, type IpRange } from '../security/ip-allow-list.js';
import { mediaUrlNotAllowed } from './media-errors.js';

/** Resolves a host name to every address it has. */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The part of `security.media` that decides which addresses may be fetched. */
export interface MediaAddressPolicyConfig {
  allow_private_networks: boolean;
  /** Host names, addresses and CIDR ranges fetched whatever their address. */
  allow_hosts: readonly string[];
}

const resolveWithSystem: HostResolver = (hostname) => dnsPromises.lookup(hostname, { all: true });

// Cloud instance metadata endpoints (AWS, GCP and Azure on link-local, AWS on IPv6, Alibaba).
// They hand out credentials, so `allow_private_networks` does not open them; only an
// explicit `allow_hosts` entry does.
const metadataRanges = ['169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254/128', '100.100.100.200/32'].map((entry) => parseIpRange(entry) as IpRange);

const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * True for a globally routable address. IPv4 must be plain unicast (not private, loopback,
 * link-local, carrier-grade NAT, unspecified, broadcast, multicast or reserved); IPv6 must be
 * global unicast (2000::/3) outside the special ranges, and the IPv6 forms that carry an
 * IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 */
function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address instanceof ipaddr.IPv4) return address.range() === 'unicast';
  if (address.isIPv4MappedAddress()) return isPublicAddress(address.toIPv4Address());
  const bytes = address.toByteArray();
  if (address.match(nat64)) return isPublicAddress(new ipaddr.IPv4(bytes.slice(12, 16)));
  if (address.range() === '6to4') return isPublicAddress(new ipaddr.IPv4(bytes.slice(2, 6)));
  return address.range() === 'unicast' && address.match(globalUnicast);
}

const withoutBrackets = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);
const normalizedHost = (hostname: string) => withoutBrackets(hostname.toLowerCase()).replace(/\.$/, '');

/**
 * Decides which hosts and addresses client-given media may be fetched from, and resolves
 * names for the fetcher's connections. By default only public addresses pass;
 * `allow_private_networks` lets private, loopback and other local ranges through (not cloud
 * metadata), and `allow_hosts` entries pass whatever their address.
 */
export class MediaAddressPolicy {
  readonly #allowPrivateNetworks: boolean;
  readonly #allowedHostNames: ReadonlySet<string>;
  readonly #allowedRanges: readonly IpRange[];
  readonly #resolveHost: HostResolver;

  constructor(config: MediaAddressPolicyConfig, resolveHost: HostResolver = resolveWithSystem) {
    this.#allowPrivateNetworks = config.allow_private_networks;
    const ranges: IpRange[] = [];
    const names = new Set<string>();
    for (const entry of config.allow_hosts) {
      const range = parseIpRange(withoutBrackets(entry.trim()));
      if (range === undefined) names.add(normalizedHost(entry.trim()));
      else ranges.push(range);
    }
    this.#allowedHostNames = names;
    this.#allowedRanges = ranges;
    this.#resolveHost = resolveHost;
  }

  /** True when `address` may be connected to. */
  isAddressAllowed(address: string): boolean {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return false;
    }
    if (ipInRanges(address, this.#allowedRanges)) return true;
    if (ipInRanges(address, metadataRanges)) return false;
    return this.#allowPrivateNetworks || isPublicAddress(parsed);
  }

  /**
   * Throws 400 `media_url_not_allowed` when the URL's host is an address literal that may not
   * be fetched. Host names are checked when they are resolved, by {@link lookup}.
   */
  assertUrlAllowed(url: URL): void {
    const host = normalizedHost(url.hostname);
    if (isIP(host) !== 0 && !this.isAddressAllowed(host)) throw mediaUrlNotAllowed(new Error(`address ${host} refused`));
  }

  /**
   * Throws 400 `media_url_not_allowed` when a URL that another party (the upstream) will
   * fetch names a host the guard would refuse: an address literal checked as
   * {@link assertUrlAllowed} does, a host name resolved here and refused when any of its
   * addresses is. A name that does not resolve here passes: the gateway can only judge what
   * its own resolver sees, and the fetching party resolves the name again itself.
   */
  async assertVendorFetchedUrlAllowed(url: URL): Promise<void> {
    this.assertUrlAllowed(url);
    const host = normalizedHost(url.hostname);
    if (isIP(host) !== 0 || this.#allowedHostNames.has(host)) return;
    let addresses: readonly LookupAddress[];
    try {
      addresses = await this.#resolveHost(host);
    } catch {
      return;
    }
    const refused = addresses.find((address) => !this.isAddressAllowed(address.address));
    if (refused !== undefined) throw mediaUrlNotAllowed(new Error(`host ${host} resolves to ${refused.address}, refused`));
  }

  /**
   * A `net.connect` lookup that resolves the name itself and refuses it when any of its
   * addresses may not be fetched. The connection is made to exactly the addresses checked
   * here, so a name that changes its answer between check and connect (DNS rebinding) gains
   * nothing.
   */
  readonly lookup: LookupFunction = (hostname: string, options: LookupOptions, callback) => {
    this.#resolve(hostname, options).then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        if (options.all === true) callback(null, [...addresses]);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  async #resolve(hostname: string, options: LookupOptions): Promise<readonly LookupAddress[]> {
    const resolved = await this.#resolveHost(hostname);
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const addresses = family === 4 || family === 6 ? resolved.filter((address) => address.family === family) : resolved;
    if (addresses.length === 0) throw Object.assign(new Error(`no address found for ${hostname}`), { code: 'ENOTFOUND' });
    if (this.#allowedHostNames.has(normalizedHost(hostname))) return addresses;
    const refused = addresses.find((address) => !this.isAddressAllowed(address.address));
    if (refused !== undefined) throw mediaUrlNotAllowed(new Error(`host ${hostname} resolves to ${refused.address}, refused`));
    return addresses;
  }
}
