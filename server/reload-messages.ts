import type { ReloadReport } from '../core/reload/gateway-state.js';

/** What the cluster primary sends every worker after its SIGHUP: reload your config file. */
export interface ReloadMessage {
  type: 'model-gateway:reload';
  /** Pairs each worker's answer with the reload that asked for it. */
  id: number;
  /** True for the one worker that records the reload in the audit trail. */
  audit: boolean;
}

/** A worker's answer to a {@link ReloadMessage}: what its reload did. */
export interface ReloadedMessage {
  type: 'model-gateway:reloaded';
  id: number;
  report: ReloadReport;
}

export function reloadMessage(id: number, audit: boolean): ReloadMessage {
  return { type: 'model-gateway:reload', id, audit };
}

export function isReloadMessage(message: unknown): message is ReloadMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'model-gateway:reload' && typeof (message as { id?: unknown }).id === 'number';
}

export function reloadedMessage(id: number, report: ReloadReport): ReloadedMessage {
  return { type: 'model-gateway:reloaded', id, report };
}

export function isReloadedMessage(message: unknown): message is ReloadedMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'model-gateway:reloaded' && typeof (message as { id?: unknown }).id === 'number';
}
