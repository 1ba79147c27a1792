import type { z } from 'zod';
import type { OperationRequests } from '../operation-requests.js';
import type { OperationName } from './operation-call.js';
import type { PreparedRequests, Provider } from './provider.js';
import type { ProviderHost } from './provider-host.js';

/** What every version of the plugin contract has. */
interface ProviderPluginBase<Options, Prepared extends PreparedRequests> {
  /** The family name, e.g. `gx`. */
  readonly name: string;
  /** Validates each channel's `options` block. */
  readonly options: z.ZodType<Options>;
  /**
   * The `max_response_mb` of this family's channels when their config sets none: the largest
   * answer the family can legitimately send, in MiB, for a family whose answers can outgrow
   * the gateway's 64 MiB (several images as base64). A channel's own key wins.
   */
  readonly maxResponseMb?: number;
  /** Called once per channel when the gateway starts. */
  create(options: Options, host: ProviderHost): Provider<Options, Prepared> | Promise<Provider<Options, Prepared>>;
}

/** A plugin of the first contract: its estimates and handlers receive the validated client request. Still loaded as it is. */
export interface ProviderPluginVersion1<Options = unknown> extends ProviderPluginBase<Options, {}> {
  readonly apiVersion: 1;
}

/** A plugin of the current contract, which may prepare each operation's request once. */
export interface ProviderPluginVersion2<Options = unknown, Prepared extends PreparedRequests = {}> extends ProviderPluginBase<Options, Prepared> {
  readonly apiVersion: 2;
  /**
   * Checks and normalizes an operation's validated client request once, before any quota
   * is touched: throw `invalidRequest(message, { param })` to refuse it. What it returns is
   * what the operation's `estimate` and handler receive as `request`, on every channel of
   * this plugin the request tries (failover calls it again only for another plugin's
   * channel), so nothing is parsed twice. It belongs to the plugin, not to a channel: it
   * sees no options and no host, and does no I/O (media a family fetches is fetched by the
   * handler, after the reservation; see `OncePerRequest` to fetch it once across channels).
   */
  readonly prepare?: { readonly [Name in keyof Prepared & OperationName]: (request: OperationRequests[Name]) => Prepared[Name] };
}

/**
 * What a provider module default-exports, checked when the gateway starts: a plugin of
 * contract version 2 (the current one) or 1.
 */
export type ProviderPlugin<Options = unknown, Prepared extends PreparedRequests = {}> = ProviderPluginVersion1<Options> | ProviderPluginVersion2<Options, Prepared>;

/** Identity helper that types a plugin definition of version 2; `Prepared` names what its `prepare` makes of each operation's request. */
export function defineProvider<Options, Prepared extends PreparedRequests = {}>(plugin: ProviderPluginVersion2<Options, Prepared>): ProviderPluginVersion2<Options, Prepared>;
/** Identity helper that types a plugin definition of version 1. */
export function defineProvider<Options>(plugin: ProviderPluginVersion1<Options>): ProviderPluginVersion1<Options>;
export function defineProvider(plugin: ProviderPlugin): ProviderPlugin {
  return plugin;
}
