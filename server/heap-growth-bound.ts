import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old space grow past what the last full collection kept, in percent,
 * unless the operator chose otherwise. Measured on the gateway under the benchmark's load
 * (docs/benchmark.md, "Memory"): V8's own rule lets the old space reach about four times its
 * live size before it collects, because it sizes that growth for throughput from the heap
 * limit (4 GiB here); most of that is request garbage promoted out of the young generation,
 * and the RSS follows it.
 */
export const defaultHeapGrowingPercent = 50;

const flagName = '--heap-growing-percent';

/**
 * Bounds the old space's growth between full collections to {@link defaultHeapGrowingPercent}
 * for this process, unless the operator passed `--heap-growing-percent` to node (`=0` gives
 * V8's own rule back). V8 reads this flag each time it sets the next collection's limit, so
 * setting it while the process starts is as good as passing it on the command line, which
 * `NODE_OPTIONS` does not allow. Returns the percent now in force, or undefined when the
 * operator's own flag decides.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): number | undefined {
  // V8 takes its flags with dashes or underscores, and node only in the `--flag=value` form.
  if (execArgv.some((argument) => argument.replaceAll('_', '-').startsWith(`${flagName}=`))) return undefined;
  setFlags(`${flagName}=${defaultHeapGrowingPercent}`);
  return defaultHeapGrowingPercent;
}
