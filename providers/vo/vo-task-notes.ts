import type { KeyValueStore, ProviderLogger } from '../../core/index.js';

/** What billing needs when a task finishes: each video's length and resolution, and how many were asked for. */
export interface VoTaskNote {
  secondsEach: number;
  resolution: string;
  sampleCount: number;
}

// Longer than any task lives in core (tasks.ttl_ms, about a day) and than the upstream keeps its videos (about 2 days).
const noteMilliseconds = 7 * 24 * 3_600_000;

/**
 * Remembers, per operation name, what a task was submitted with, so its final usage can
 * count only the videos the upstream made (the safety filters may remove some). The task
 * query carries only the handle, hence this store. A note that cannot be written or read is
 * logged and skipped: core then bills what was reserved at submission.
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
