import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GatewayConfig } from '../core/config/config-schema.js';
import type { ReloadReport } from '../core/reload/gateway-state.js';

/**
 * The files through which `model-gateway reload` reaches the running gateway, in
 * `storage.data_dir`: `gateway.pid` holds the pid that takes SIGHUP (the single process, or
 * the cluster primary), written once it serves and removed when it stops; `last-reload.json`
 * is what the last SIGHUP reload did, which the command waits for and prints.
 */
export function pidFileOf(storage: Pick<GatewayConfig['storage'], 'data_dir'>): string {
  return join(resolve(storage.data_dir), 'gateway.pid');
}

function resultFileOf(storage: Pick<GatewayConfig['storage'], 'data_dir'>): string {
  return join(resolve(storage.data_dir), 'last-reload.json');
}

/** What a SIGHUP reload did: the report of the process (or of each worker), and when it finished. */
export interface ReloadResult {
  pid: number;
  /** Milliseconds since the epoch. */
  finished_at: number;
  /** One report for a single process; one per worker that answered in a cluster. */
  reports: ReloadReport[];
  /** Workers that did not answer in time (cluster only). */
  unanswered: number;
}

/** Writes this process's pid file (the directory is made if missing). */
export function writePidFile(storage: Pick<GatewayConfig['storage'], 'data_dir'>): void {
  mkdirSync(resolve(storage.data_dir), { recursive: true });
  writeFileSync(pidFileOf(storage), `${process.pid}\n`);
}

/** Removes the pid file, if it is still this process's (a later start may have replaced it). */
export function removePidFile(storage: Pick<GatewayConfig['storage'], 'data_dir'>): void {
  if (readPid(storage) === process.pid) rmSync(pidFileOf(storage), { force: true });
}

/** The pid in the pid file; undefined when there is none or it holds no pid. */
export function readPid(storage: Pick<GatewayConfig['storage'], 'data_dir'>): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(pidFileOf(storage), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Records what a SIGHUP reload did, written whole (renamed into place) so a reader never sees half of it. */
export function writeReloadResult(storage: Pick<GatewayConfig['storage'], 'data_dir'>, result: ReloadResult): void {
  const file = resultFileOf(storage);
  mkdirSync(resolve(storage.data_dir), { recursive: true });
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(result)}\n`);
  renameSync(`${file}.${process.pid}`, file);
}

/** The last reload's result; undefined when there is none (or it cannot be read). */
export function readReloadResult(storage: Pick<GatewayConfig['storage'], 'data_dir'>): ReloadResult | undefined {
  try {
    return JSON.parse(readFileSync(resultFileOf(storage), 'utf8')) as ReloadResult;
  } catch {
    return undefined;
  }
}
