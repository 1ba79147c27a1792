import type { ProviderConfig } from '../config/config-schema.js';
import { ConfigError, formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import { configLineFinder } from '../config/config-lines.js';
import type { Provider } from '../contracts/provider/provider.js';
import type { ProviderHost } from '../contracts/provider/provider-host.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import { pluginExportSchema } from './plugin-export-schema.js';
import { loadBuiltInNames, resolvePluginSpecifier, type BuiltInNames } from './resolve-plugin-specifier.js';

/** One `providers[]` entry with its plugin loaded, its options parsed and its provider created. */
export interface LoadedChannel {
  index: number;
  config: ProviderConfig;
  plugin: ProviderPlugin;
  options: unknown;
  provider: Provider;
}

/** One `providers[]` entry with its plugin loaded and its options parsed, before any provider is created. */
export type CheckedChannel = Omit<LoadedChannel, 'provider'>;

/** A problem of one channel entry, by its path inside the entry (`['options', 'region']`). */
export interface ChannelEntryProblem {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * Resolves and imports one channel's plugin, checks its default export and parses the
 * channel's `options` with the plugin's own schema, creating nothing. `modules` shares the
 * imports between calls. What {@link checkProviderPlugins} runs for each entry of the file, and
 * the channel API for a channel it is given.
 */
export async function checkProviderPlugin(
  config: ProviderConfig,
  configFile: string,
  names: BuiltInNames,
  modules: Map<string, Promise<unknown>> = new Map(),
  warn: (path: readonly PropertyKey[], message: string) => void = () => {},
): Promise<{ plugin: ProviderPlugin; options: unknown } | { problems: ChannelEntryProblem[] }> {
  let plugin: ProviderPlugin;
  try {
    const { url, warning } = resolvePluginSpecifier(config.plugin, configFile, names);
    if (warning !== undefined) warn(['plugin'], warning);
    if (!modules.has(url)) modules.set(url, import(url));
    const module = (await modules.get(url)) as { default?: unknown };
    const checked = pluginExportSchema.safeParse(module.default);
    if (!checked.success) {
      const detail = module.default === undefined ? 'the module has no default export' : checked.error.issues.map((issue) => issue.message).join('; ');
      return { problems: [{ path: ['plugin'], message: `"${config.plugin}" is not a provider plugin: ${detail}` }] };
    }
    plugin = module.default as ProviderPlugin;
  } catch (error) {
    return { problems: [{ path: ['plugin'], message: `cannot load "${config.plugin}": ${(error as Error).message}` }] };
  }
  const parsed = plugin.options.safeParse(config.options);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) =>
        issue.code === 'unrecognized_keys' ? { path: ['options', ...issue.path, issue.keys[0] ?? ''], message: 'unknown key' } : { path: ['options', ...issue.path], message: issue.message },
      ),
    };
  }
  return { plugin, options: parsed.data };
}

/**
 * Runs {@link checkProviderPlugin} on every channel of the file: what `config check` runs,
 * and the first half of {@link loadProviderPlugins}. Every problem is collected and reported
 * at once, by YAML path and line. A built-in plugin loaded by an old name loads, and `warn`
 * hears which name to write instead.
 */
export async function checkProviderPlugins(
  providers: readonly ProviderConfig[],
  configFile: string,
  warn: (path: string, message: string) => void = () => {},
): Promise<CheckedChannel[]> {
  const names = await loadBuiltInNames();
  const lineOf = configLineFinder(configFile);
  const problems: ConfigProblem[] = [];
  const modules = new Map<string, Promise<unknown>>();
  const channels: CheckedChannel[] = [];
  for (const [index, config] of providers.entries()) {
    const checked = await checkProviderPlugin(config, configFile, names, modules, (path, message) => warn(formatYamlPath(['providers', index, ...path]), message));
    if ('problems' in checked) {
      for (const problem of checked.problems) {
        const full = ['providers', index, ...problem.path];
        problems.push({ path: formatYamlPath(full), message: problem.message, line: lineOf(full) });
      }
      continue;
    }
    channels.push({ index, config, ...checked });
  }
  if (problems.length > 0) throw new ConfigError(configFile, problems);
  return channels;
}

/**
 * Loads every channel's plugin when the gateway starts ({@link checkProviderPlugins}), then
 * creates each provider ({@link createProviders}). Every problem is collected and reported at
 * once; any problem fails the start.
 */
export async function loadProviderPlugins(
  providers: readonly ProviderConfig[],
  configFile: string,
  createHost: (channel: ProviderConfig, plugin: ProviderPlugin) => ProviderHost,
  warn: (path: string, message: string) => void = () => {},
): Promise<LoadedChannel[]> {
  return createProviders(await checkProviderPlugins(providers, configFile, warn), configFile, createHost);
}

/**
 * Creates the provider of each checked channel. Every problem is collected and reported at
 * once, by the channel's YAML path and line; when any fails, the providers already created
 * are closed and nothing is returned.
 */
export async function createProviders(
  checked: readonly CheckedChannel[],
  configFile: string,
  createHost: (channel: ProviderConfig, plugin: ProviderPlugin) => ProviderHost,
): Promise<LoadedChannel[]> {
  const lineOf = configLineFinder(configFile);
  const problems: ConfigProblem[] = [];
  const channels: LoadedChannel[] = [];
  for (const channel of checked) {
    const { index, config, plugin } = channel;
    const path = ['providers', index, 'plugin'];
    const problem = (message: string) => problems.push({ path: formatYamlPath(path), message, line: lineOf(path) });
    try {
      const provider = await plugin.create(channel.options, createHost(config, plugin));
      if (provider === null || typeof provider !== 'object' || typeof provider.operations !== 'object' || provider.operations === null) {
        problem(`"${config.plugin}" create() did not return a provider with operations`);
        continue;
      }
      channels.push({ ...channel, provider });
    } catch (error) {
      problem(`"${config.plugin}" failed to start: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) {
    await Promise.allSettled(channels.map((channel) => channel.provider.close?.()));
    throw new ConfigError(configFile, problems);
  }
  return channels;
}
