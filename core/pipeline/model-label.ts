import type { Channel } from '../routing/channel.js';

/** The model label of a request no channel lists: one value for every name a client makes up. */
export const unknownModelLabel = 'unknown';

/**
 * The model as metrics label it: the entry of the config that matched (`gx-8*` for every
 * name the pattern stands for), on the channel that was tried when there was one, never the
 * client's own text, so a client cannot add a time series per name it invents; a model no
 * channel lists is {@link unknownModelLabel}. The entries are the operator's, so the set of
 * values is closed.
 */
export function modelLabel(channels: readonly Channel[], model: string, channelName?: string): string {
  const tried = channelName === undefined ? undefined : channels.find((channel) => channel.name === channelName)?.entryFor(model);
  if (tried !== undefined) return tried;
  for (const channel of channels) {
    const entry = channel.entryFor(model);
    if (entry !== undefined) return entry;
  }
  return unknownModelLabel;
}
