import { isDeepStrictEqual } from 'node:util';
import type { GatewayConfig } from '../config/config-schema.js';

/**
 * The config keys a running gateway cannot change, each with why: a reload that changes one
 * reports it as needing a restart and keeps the running value, so none of them is ever half
 * applied. Everything else (channels, prices, billing, groups, rate limits, aliases,
 * fallbacks, routing, streaming, translators, users, the usage log's and the audit trail's
 * settings) is swapped.
 */
export const restartOnlyKeys: readonly { path: readonly string[]; why: string }[] = [
  { path: ['server'], why: 'the listener, its timeouts and limits and the worker processes are set up once' },
  { path: ['storage'], why: 'the store is opened once' },
  { path: ['security'], why: 'the encryption key seals what is stored; the media fetcher and the failure counters are built once' },
  { path: ['observability'], why: 'the tracer is started once' },
  { path: ['budgets'], why: 'budget windows in the store are cut at the time zone they were counted in' },
  { path: ['tasks'], why: 'the task service and its background poller are built once' },
  { path: ['audio'], why: 'the upload limit is part of the route' },
  { path: ['assets'], why: 'the asset routes are bound to their model' },
  { path: ['auth'], why: 'the sign-in routes are built with the identity provider they use' },
  { path: ['routing', 'affinity', 'ttl_ms'], why: 'stored affinities and conversations were written with it' },
];

/** The top-level sections a reload compares to say what it changed (restart-only ones are reported apart). */
const swappedSections = [
  'users',
  'groups',
  'auto_groups',
  'pricing',
  'billing',
  'routing',
  'streaming',
  'logs',
  'rate_limits',
  'providers',
  'aliases',
  'fallbacks',
  'translators',
  'audit',
] as const satisfies readonly (keyof GatewayConfig)[];

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[segment] : undefined;
  return current;
}

/** Every leaf under `path` whose value differs between `before` and `after`, as `server.port`. */
function changedLeaves(before: unknown, after: unknown, path: readonly string[], into: string[]): void {
  if (isDeepStrictEqual(before, after)) return;
  const isRecord = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isRecord(before) && isRecord(after)) {
    const keys = new Set([...Object.keys(before as object), ...Object.keys(after as object)]);
    for (const key of keys) changedLeaves((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], [...path, key], into);
    return;
  }
  into.push(path.join('.'));
}

/** The restart-only keys (as dotted paths, e.g. `server.port`) whose value differs between the running config and `next`. */
export function restartOnlyChanges(running: GatewayConfig, next: GatewayConfig): string[] {
  const changed: string[] = [];
  for (const { path } of restartOnlyKeys) changedLeaves(valueAt(running, path), valueAt(next, path), path, changed);
  return changed;
}

/** `next` with every restart-only key at its running value: the config a reload puts in force. */
export function withRunningRestartOnlyKeys(running: GatewayConfig, next: GatewayConfig): GatewayConfig {
  let result: Record<string, unknown> = { ...next };
  for (const { path } of restartOnlyKeys) result = replacedAt(result, path, valueAt(running, path));
  return result as unknown as GatewayConfig;
}

/** A copy of `target` with `value` at `path`, copying only the objects along the path. */
function replacedAt(target: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...target, [head]: value };
  const child = target[head];
  return { ...target, [head]: replacedAt(typeof child === 'object' && child !== null ? (child as Record<string, unknown>) : {}, rest, value) };
}

/** The swapped sections that differ between two configs, in config order (`providers` included; channels are detailed apart). */
export function changedSections(before: GatewayConfig, after: GatewayConfig): string[] {
  return swappedSections.filter((section) => !isDeepStrictEqual(before[section], after[section]));
}

/** Only `sections` of `config`: what a reload's audit record keeps of the configs before and after it. */
export function sectionsOf(config: GatewayConfig, sections: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(sections.map((section) => [section, (config as unknown as Record<string, unknown>)[section]]));
}
