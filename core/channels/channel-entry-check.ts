import type { ProviderConfig } from '../config/config-schema.js';
import { checkProviderPlugin, type ChannelEntryProblem } from '../loader/load-provider-plugins.js';
import { builtInFamilyNames, loadBuiltInNames } from '../loader/resolve-plugin-specifier.js';

/** What the channel API checks a channel entry with, past its shape: the plugin it names and that plugin's options. */
export type ChannelEntryCheck = (entry: ProviderConfig) => Promise<ChannelEntryProblem[]>;

/**
 * The check of a channel given to the channel API: its plugin must be a built-in family or a
 * plugin a channel of the config file already loads (a path or package the operator put in
 * the file), never another path or package, since an admin's login token must not be enough
 * to run code from anywhere on the disk. The plugin is then loaded and the channel's
 * `options` parsed with its own schema, as `start` does for the file's channels.
 */
export function channelEntryCheck(fileChannels: () => readonly ProviderConfig[], configFile: string): ChannelEntryCheck {
  const modules = new Map<string, Promise<unknown>>();
  return async (entry) => {
    const filePlugins = new Set(fileChannels().map((channel) => channel.plugin));
    const names = await loadBuiltInNames();
    const builtIn = builtInFamilyNames(names);
    if (!builtIn.includes(entry.plugin) && !filePlugins.has(entry.plugin) && names.renamed[entry.plugin] === undefined) {
      const fromFile = [...filePlugins].filter((plugin) => !builtIn.includes(plugin));
      const others = fromFile.length === 0 ? '' : `, or a plugin a channel of the config file loads (${fromFile.join(', ')})`;
      return [{ path: ['plugin'], message: `expected a built-in family (${builtIn.join(', ')})${others}; a channel of another plugin is added in the config file` }];
    }
    const checked = await checkProviderPlugin(entry, configFile, names, modules);
    return 'problems' in checked ? checked.problems : [];
  };
}
