import type { OperationName } from '../../contracts/provider/operation-call.js';
import type { ScriptedBehaviour, ScriptedFake } from '../scripted-behaviour.js';
import { checkCase, type ConformanceCase } from './check-operation.js';
import { checkPluginExport, type PluginSource } from './check-plugin-export.js';
import { conformanceChannel, createConformanceHost } from './conformance-host.js';
import { CheckList, ConformanceError, type ConformanceReport } from './conformance-report.js';
import { operationNames, taskQueries } from './operation-kinds.js';

/** What the suite runs against. */
export interface ConformanceSubject {
  /** The plugin module: a path (relative to the working directory) or file URL to import, the imported module, or its default export. */
  plugin: PluginSource;
  /** A channel's `options` that must be accepted; the provider is created with them. */
  options?: unknown;
  /** At least one `options` block the schema must refuse (an unknown key, a wrong type). */
  invalidOptions: unknown[];
  /**
   * The upstream the channel points at: `startRecordedUpstream` over your recorded answers,
   * or a fake of your own built on this kit. It must honour the scripted behaviours `error`
   * (your vendor's error answer for that status), `status` with `body`, `stallBeforeHeadersMs`
   * and `stallAfterChunks`.
   */
  upstream: ScriptedFake<ScriptedBehaviour>;
  /** The channel's key; defaults to `conformance-key`. */
  apiKey?: string;
  /** The requests to send, for every operation the provider declares (several for one operation: a plain and a streamed chat). */
  cases: { [Name in OperationName]?: ConformanceCase | ConformanceCase[] };
  /** How long a call may take to settle once its signal aborted; defaults to 3 s. */
  abortMilliseconds?: number;
}

/** Task queries run after the submission whose task they ask about, and `video.status` first, which waits for the task to end. */
const order = (name: OperationName): number => (name === 'video.submit' ? 1 : name === 'video.status' ? 2 : taskQueries.has(name) ? 3 : 0);

/**
 * Runs the conformance suite on a provider plugin and answers its report; it never throws
 * for a failed check. It checks the export shape and the options schema as the gateway's
 * loader does, then sends each case through its operation against the upstream: the result's
 * kind and fields, its usage (and the estimate's), a stream's order and its end, the mapping
 * of upstream 429, 503, 400 and malformed answers to gateway errors, and that an aborted call
 * stops. Every operation the provider declares needs a case.
 */
export async function runConformance(subject: ConformanceSubject): Promise<ConformanceReport> {
  const checks = new CheckList();
  const { host, logged, close } = createConformanceHost();
  try {
    const loaded = await checkPluginExport(checks, subject.plugin, subject.options ?? {}, subject.invalidOptions, host);
    if (loaded === undefined) return checks.report();
    const declared = operationNames.filter((name) => typeof loaded.provider.operations[name] === 'function').sort((a, b) => order(a) - order(b));
    const setting = {
      checks,
      plugin: loaded.plugin,
      provider: loaded.provider,
      options: loaded.parsedOptions,
      channel: conformanceChannel(subject.upstream.url, subject.apiKey ?? 'conformance-key'),
      upstream: subject.upstream,
      abortMilliseconds: subject.abortMilliseconds ?? 3_000,
    };
    const extra = Object.keys(subject.cases).filter((name) => !(declared as string[]).includes(name));
    checks.expect('every case is for an operation the provider declares', extra.length > 0 ? `no such operation on this provider: ${extra.join(', ')}` : undefined);
    let handle: string | undefined;
    for (const operation of declared) {
      const cases = subject.cases[operation];
      if (!checks.expect(`${operation}: the suite has a case for the declared operation`, cases === undefined || (Array.isArray(cases) && cases.length === 0) ? `add cases['${operation}']` : undefined)) continue;
      for (const testCase of Array.isArray(cases) ? cases : [cases!]) {
        const started = await checkCase(setting, operation, testCase, handle);
        handle ??= started;
      }
    }
    const crashes = logged.filter((line) => line.level === 'error');
    checks.expect('the plugin logged no error while the suite ran', crashes.length > 0 ? crashes.map((line) => line.message ?? JSON.stringify(line.object)).join('; ') : undefined);
    await loaded.provider.close?.();
    return checks.report();
  } finally {
    await close();
  }
}

/** Runs the suite (see {@link runConformance}) and throws a {@link ConformanceError} listing every failed check; resolves with the report when all passed. For any test runner. */
export async function assertConformance(subject: ConformanceSubject): Promise<ConformanceReport> {
  const report = await runConformance(subject);
  if (!report.passed) throw new ConformanceError(report);
  return report;
}


