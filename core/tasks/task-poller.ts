import type { TaskService } from './task-service.js';

/**
 * Moves tasks nobody polls: every `intervalMilliseconds`, one pass over the open tasks, so each
 * one settles (or expires and is refunded) even when its client never asks again. A pass
 * that is still running when the next is due is not doubled.
 */
export class TaskPoller {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly tasks: TaskService,
    private readonly intervalMilliseconds: number,
  ) {}

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.pass(), this.intervalMilliseconds);
    this.#timer.unref();
  }

  /** Runs one pass now, or joins the one under way. */
  pass(): Promise<void> {
    this.#running ??= this.tasks.refreshOpenTasks().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
