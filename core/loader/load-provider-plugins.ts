import type { ProviderConfig } from '../config/config-schema.js';
import { ConfigError, formatYamlPath, type ConfigProblem } from '../config/config-error.js';
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

/**
 * Loads every channel's plugin when the gateway starts: resolve, import, check the default
 * export, parse the channel's `options` with the plugin's own schema, create the provider.
 * Every problem is collected and reported at once, by YAML path; any problem fails the start.
 * A built-in plugin loaded by an old name loads, and `warn` hears which name to write instead.
 */
export async function loadProviderPlugins(
  providers: readonly ProviderConfig[],
  configFile: string,
  createHost: (channel: ProviderConfig, plugin: ProviderPlugin) => ProviderHost,
  warn: (path: string, message: string) => void = () => {},
): Promise<LoadedChannel[]> {
  const names = await loadBuiltInNames();
  const problems: ConfigProblem[] = [];
  const modules = new Map<string, Promise<unknown>>();
  const channels: LoadedChannel[] = [];
  for (const [index, config] of providers.entries()) {
    const where = (...path: PropertyKey[]) => formatYamlPath(['providers', index, ...path]);
    let plugin: ProviderPlugin;
    try {
      const { url, warning } = resolvePluginSpecifier(config.plugin, configFile, names);
      if (warning !== undefined) warn(where('plugin'), warning);
      if (!modules.has(url)) modules.set(url, import(url));
      const module = (await modules.get(url)) as { default?: unknown };
      const checked = pluginExportSchema.safeParse(module.default);
      if (!checked.success) {
        const detail = module.default === undefined ? 'the module has no default export' : checked.error.issues.map((issue) => issue.message).join('; ');
        problems.push({ path: where('plugin'), message: `"${config.plugin}" is not a provider plugin: ${detail}` });
        continue;
      }
      plugin = module.default as ProviderPlugin;
    } catch (error) {
      problems.push({ path: where('plugin'), message: `cannot load "${config.plugin}": ${(error as Error).message}` });
      continue;
    }
    const parsed = plugin.options.safeParse(config.options);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
        problems.push({ path: where('options', ...path), message: issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message });
      }
      continue;
    }
    try {
      const provider = await plugin.create(parsed.data, createHost(config, plugin));
      if (provider === null || typeof provider !== 'object' || typeof provider.operations !== 'object' || provider.operations === null) {
        problems.push({ path: where('plugin'), message: `"${config.plugin}" create() did not return a provider with operations` });
        continue;
      }
      channels.push({ index, config, plugin, options: parsed.data, provider });
    } catch (error) {
      problems.push({ path: where('plugin'), message: `"${config.plugin}" failed to start: ${(error as Error).message}` });
    }
  }
  if (problems.length > 0) throw new ConfigError(configFile, problems);
  return channels;
}
