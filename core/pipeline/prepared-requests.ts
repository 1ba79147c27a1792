import type { OperationName } from '../contracts/provider/operation-call.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import type { Channel } from '../routing/channel.js';

type PrepareSteps = { [Name in OperationName]?: (request: unknown) => unknown };

/**
 * The request each channel's provider receives, for one client request: what its plugin's
 * `prepare` made of the request, prepared the first time a channel of that plugin needs it
 * and kept for the others, so a failover between channels of one plugin prepares once and
 * one to another plugin's channel prepares for that plugin. A channel a translator serves
 * receives the translated request for the operation it serves, prepared by its plugin for
 * that operation: kept by plugin and served operation. A version 1 plugin, or an operation its
 * plugin does not prepare, receives the request as it is. A refusal (`prepare` throws) is not
 * kept: it reaches the caller, which fails that attempt with it.
 */
export class PreparedRequests {
  // Made on the first prepared request: most requests go to plugins that prepare nothing.
  #byPlugin: Map<ProviderPlugin, unknown> | undefined;
  // Made on the first prepared translation: a request the providers serve themselves never needs it.
  #servedByPlugin: Map<ProviderPlugin, Map<OperationName, unknown>> | undefined;

  constructor(
    private readonly operation: OperationName,
    private readonly request: unknown,
  ) {}

  /** The request `channel`'s estimate and handler receive for the client's own operation. */
  of(channel: Channel): unknown {
    const prepare = prepareStep(channel.plugin, this.operation);
    if (prepare === undefined) return this.request;
    this.#byPlugin ??= new Map();
    if (this.#byPlugin.has(channel.plugin)) return this.#byPlugin.get(channel.plugin);
    const prepared = prepare(this.request);
    this.#byPlugin.set(channel.plugin, prepared);
    return prepared;
  }

  /** What `channel`'s estimate and handler receive for `operation`, which a translator serves with `translated`, the same for every channel of the plugin. */
  ofServed(channel: Channel, operation: OperationName, translated: unknown): unknown {
    const prepare = prepareStep(channel.plugin, operation);
    if (prepare === undefined) return translated;
    this.#servedByPlugin ??= new Map();
    let byOperation = this.#servedByPlugin.get(channel.plugin);
    if (byOperation === undefined) this.#servedByPlugin.set(channel.plugin, (byOperation = new Map()));
    if (byOperation.has(operation)) return byOperation.get(operation);
    const prepared = prepare(translated);
    byOperation.set(operation, prepared);
    return prepared;
  }
}

/** The plugin's `prepare` of `operation`; a version 1 plugin prepares nothing. */
function prepareStep(plugin: ProviderPlugin, operation: OperationName): ((request: unknown) => unknown) | undefined {
  return plugin.apiVersion === 1 ? undefined : (plugin.prepare as PrepareSteps | undefined)?.[operation];
}
