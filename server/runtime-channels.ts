import type { FastifyBaseLogger } from 'fastify';
import { channelEntryCheck } from '../core/channels/channel-entry-check.js';
import { channelProblemLocator } from '../core/channels/channel-problems.js';
import { ChannelService } from '../core/channels/channel-service.js';
import { StoreChannelRepository } from '../core/channels/store-channel-repository.js';
import { formatConfigProblem } from '../core/config/config-error.js';
import type { GatewayState } from '../core/reload/gateway-state.js';
import type { KeyCipher } from '../core/security/key-cipher.js';
import type { StoreBackend } from '../core/store/store-backend.js';

/** What the runtime channels are wired with. */
export interface RuntimeChannelParts {
  state: GatewayState;
  configFile: string;
  backend: StoreBackend;
  logger: FastifyBaseLogger;
  cipher: KeyCipher;
  now: () => number;
}

/**
 * The channels of the channel API, served beside the config file's through the gateway's
 * state: the state's channel source becomes the file's channels and the stored ones, the
 * disabled left out ({@link ChannelService.channelsFor}); a change made here, or announced by
 * another instance, re-applies the file's config with them (requests in flight finish on the
 * channels they started with, unchanged channels keep their circuit and connections). The
 * stored channels are put in force once now; when the gateway refuses them (a plugin that no
 * longer loads, a model the file no longer prices) the file's channels serve alone and the
 * problems are logged, and so does a reload of the file while they stay refused: a change
 * through the API that leaves the faulty channel out puts the others in force.
 */
export async function startRuntimeChannels(parts: RuntimeChannelParts): Promise<ChannelService> {
  const { state, configFile, backend, logger } = parts;
  const service = new ChannelService({
    repository: new StoreChannelRepository(backend),
    cipher: parts.cipher,
    backend,
    fileChannels: () => state.fileConfig.providers,
    groups: () => Object.keys(state.config.groups),
    check: channelEntryCheck(() => state.fileConfig.providers, configFile),
    logger,
    now: parts.now,
  });
  state.setChannelSource((fileConfig) => service.channelsFor(fileConfig.providers), channelProblemLocator(configFile));
  service.setApplier(async (by) => {
    const report = await state.reapply({ via: 'channels', user_id: by?.user_id, address: by?.ip });
    return report.status === 'refused' ? report.problems : [];
  });
  await service.start();
  // Nothing stored and nothing disabled: the file's channels, already in force, are all there is.
  const listed = await service.list();
  if (!listed.some((channel) => channel.source === 'store' || !channel.enabled)) return service;
  const report = await state.reapply({ via: 'channels' });
  if (report.status === 'refused') {
    logger.error(
      { problems: report.problems.map(formatConfigProblem) },
      "the channels stored through the channel API were refused, and the config file's channels serve alone: disable, change or delete the channel named (PUT or DELETE /api/channel/), which puts the others in force",
    );
  }
  return service;
}
