import type { ProviderConfig } from '../config/config-schema.js';
import { ConfigError, formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import { configLineFinder } from '../config/config-lines.js';
import type { Provider } from '../contracts/provider/provider.js';
import type { ProviderHost } from '../contracts/provider/provider-host.js';
import type { ProviderPlugin } from '../contracts/provider/provider-plugin.js';
import { pluginExportSchema } from './plugin-export-schema.js';
import { loadBuiltInNames, resolvePluginSpecifier } from './resolve-plugin-specifier.js';

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

/**
 * Resolves and imports every channel's plugin, checks its default export and parses the
 * channel's `options` with the plugin's own schema, creating nothing: what `config check`
 * runs, and the first half of {@link loadProviderPlugins}. Every problem is collected and
 * reported at once, by YAML path and line. A built-in plugin loaded by an old name loads, and
 * `warn` hears which name to write instead.
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
    const problem = (path: readonly PropertyKey[], message: string) => {
      const full = ['providers', index, ...path];
      problems.push({ path: formatYamlPath(full), message, line: lineOf(full) });
    };
    let plugin: ProviderPlugin;
    try {
      const { url, warning } = resolvePluginSpecifier(config.plugin, configFile, names);
      if (warning !== undefined) warn(formatYamlPath(['providers', index, 'plugin']), warning);
      if (!modules.has(url)) modules.set(url, import(url));
      const module = (await modules.get(url)) as { default?: unknown };
      const checked = pluginExportSchema.safeParse(module.default);
      if (!checked.success) {
        const detail = module.default === undefined ? 'the module has no default export' : checked.error.issues.map((issue) => issue.message).join('; ');
        problem(['plugin'], `"${config.plugin}" is not a provider plugin: ${detail}`);
        continue;
      }
      plugin = module.default as ProviderPlugin;
    } catch (error) {
      problem(['plugin'], `cannot load "${config.plugin}": ${(error as Error).message}`);
      continue;
    }
    const parsed = plugin.options.safeParse(config.options);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
        problem(['options', ...path], issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message);
      }
      continue;
    }
    channels.push({ index, config, plugin, options: parsed.data });
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
