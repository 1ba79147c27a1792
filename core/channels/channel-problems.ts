import { formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import { configLineFinder } from '../config/config-lines.js';
import type { ChannelProblemLocator } from '../reload/gateway-state.js';

/** `providers[2].options["x-y"]` as its index and the path after it (`['options', 'x-y']`); undefined for any other path. */
function providerPath(path: string): { index: number; rest: PropertyKey[] } | undefined {
  const match = /^providers\[(\d+)\]((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*)$/.exec(path);
  if (match === null) return undefined;
  const rest = [...(match[2] ?? '').matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)].map((segment): PropertyKey =>
    segment[1] ?? (segment[2] === undefined ? (JSON.parse(segment[3] as string) as string) : Number(segment[2])),
  );
  return { index: Number(match[1]), rest };
}

const storedPrefix = 'stored channel ';

/**
 * Where a problem of the channels in force lies, for the gateway state
 * ({@link ChannelProblemLocator}): their list leaves the disabled out and adds the stored
 * channels, so its `providers[i]` is not the file's. A channel of the file gets its own index
 * in the file and its line there; a stored channel is named as one (`stored channel
 * gx-runtime: models[0]`), since it has no line in any file.
 */
export function channelProblemLocator(configFile: string): ChannelProblemLocator {
  return (problem, providers, fileConfig) => {
    const located = providerPath(problem.path);
    const entry = located === undefined ? undefined : providers[located.index];
    if (located === undefined || entry === undefined) return problem;
    const fileIndex = fileConfig.providers.findIndex((channel) => channel.name === entry.name);
    if (fileIndex === -1) {
      const field = formatYamlPath(located.rest);
      return { path: `${storedPrefix}${entry.name}${field === '' ? '' : `: ${field}`}`, message: problem.message };
    }
    if (fileIndex === located.index) return problem;
    const path = ['providers', fileIndex, ...located.rest];
    return { path: formatYamlPath(path), message: problem.message, line: configLineFinder(configFile)(path) };
  };
}

/** The field of the stored channel `name` a located problem is about (`models[0]`, or `name` for the channel as a whole); undefined for a problem elsewhere. */
export function storedChannelField(problem: ConfigProblem, name: string): string | undefined {
  const prefix = `${storedPrefix}${name}`;
  if (problem.path === prefix) return 'name';
  return problem.path.startsWith(`${prefix}: `) ? problem.path.slice(prefix.length + 2) : undefined;
}
