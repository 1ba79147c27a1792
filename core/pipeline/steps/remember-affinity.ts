import type { ChannelAttempt } from '../channel-attempt.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * Records which channel produced an answer's affinity key, before the client can name it.
 * A failed write costs only the affinity of a later follow-up, so it is logged, not thrown.
 */
export async function rememberAffinity(context: RequestContext, services: PipelineServices, attempt: ChannelAttempt, key: string | undefined): Promise<void> {
  if (key === undefined) return;
  const channel = attempt.channel.name;
  await services.affinity.remember(key, channel).catch((error: unknown) => context.invocation.logger.warn({ err: error, channel }, 'could not record the channel of an answer'));
}
