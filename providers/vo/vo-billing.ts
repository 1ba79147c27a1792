import { videoUsage, type KeyValueStore, type ProviderLogger, type Usage } from '../../core/index.js';
import type { VoVideoPlan } from './read-vo-request.js';

/** The usage of `videos` videos of `secondsEach` seconds each at `resolution` (the `resolution_multipliers` key). */
export function voUsage(secondsEach: number, videos: number, resolution: string, source: Usage['source']): Usage {
  return videoUsage(secondsEach * videos, resolution, source);
}

/** The quota to reserve for a vo submission before any upstream call: every requested video at its length and resolution. */
export function estimateVoUsage(plan: VoVideoPlan): Usage {
  return voUsage(plan.durationSeconds, plan.sampleCount, plan.resolution, 'estimated');
}

/** What billing needs when a task finishes: each video's length and resolution, and how many were asked for. */
export interface VoTaskNote {
  secondsEach: number;
  resolution: string;
  sampleCount: number;
}

// Longer than any task lives in core (tasks.ttl_ms, about a day) and than the upstream keeps its videos (about 2 days).
const noteMilliseconds = 7 * 24 * 3_600_000;

/**
 * What each task was submitted with, by operation name (a task query carries only that), so a
 * success can bill only the videos made. A note that cannot be written or read is logged and
 * skipped: core then bills what was reserved.
 */
export class VoTaskNotes {
  constructor(
    private readonly store: KeyValueStore,
    private readonly logger: ProviderLogger,
  ) {}

  async remember(operationName: string, note: VoTaskNote): Promise<void> {
    try {
      await this.store.set(operationName, note, noteMilliseconds);
    } catch (error) {
      this.logger.warn({ err: error, operation: operationName }, 'could not note a vo task for billing; it will be billed as reserved');
    }
  }

  async recall(operationName: string): Promise<VoTaskNote | undefined> {
    try {
      return await this.store.get<VoTaskNote>(operationName);
    } catch (error) {
      this.logger.warn({ err: error, operation: operationName }, 'could not read the billing note of a vo task; it will be billed as reserved');
      return undefined;
    }
  }
}
