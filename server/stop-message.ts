/** What the cluster primary sends a worker to stop it: gracefully, or at once (`now`). */
export interface StopMessage {
  type: 'model-gateway:stop';
  now: boolean;
}

/** The message for {@link StopMessage}. */
export function stopMessage(now: boolean): StopMessage {
  return { type: 'model-gateway:stop', now };
}

/** True for a {@link StopMessage}; a worker receives nothing else from the primary today, but may later. */
export function isStopMessage(message: unknown): message is StopMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'model-gateway:stop';
}
