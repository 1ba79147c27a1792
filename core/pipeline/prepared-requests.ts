import type { OperationName } from '../contracts/provider/operation-call.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import type { Channel } from '../routing/channel.js';

/**
 * The request each channel's provider receives, for one client request: what its plugin's
 * `prepare` made of the request, prepared the first time a channel of that plugin needs it
 * and kept for the others, so a failover between channels of one plugin prepares once and
 * one to another plugin's channel prepares for that plugin. A version 1 plugin, or an
 * operation its plugin does not prepare, receives the validated client request. A refusal
 * (`prepare` throws) is not kept: it reaches the caller, which fails that attempt with it.
 */
export class PreparedRequests {
  // Made on the first prepared request: most requests go to plugins that prepare nothing.
  #byPlugin: Map<ProviderPlugin, unknown> | undefined;

  constructor(
    private readonly operation: OperationName,
    private readonly request: unknown,
  ) {}

  /** The request `channel`'s estimate and handler receive. */
  of(channel: Channel): unknown {
    const { plugin } = channel;
    if (plugin.apiVersion === 1) return this.request;
    const steps = plugin.prepare as { [Name in OperationName]?: (request: unknown) => unknown } | undefined;
    const prepare = steps?.[this.operation];
    if (prepare === undefined) return this.request;
    this.#byPlugin ??= new Map();
    if (this.#byPlugin.has(plugin)) return this.#byPlugin.get(plugin);
    const prepared = prepare(this.request);
    this.#byPlugin.set(plugin, prepared);
    return prepared;
  }
}
