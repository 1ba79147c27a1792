import { ConfigError, type ConfigProblem } from '../core/config/config-error.js';
import { configLineFinder } from '../core/config/config-lines.js';
import { unusedStorageKeys, type GatewayConfig } from '../core/config/config-schema.js';
import { loadConfigFile } from '../core/config/load-config.js';
import { unpricedModels } from '../core/billing/unpriced-models.js';
import { checkProviderPlugins } from '../core/loader/load-provider-plugins.js';
import { loadTranslators } from '../core/loader/load-translators.js';
import { assertWorkersFitStorage } from './worker-storage-check.js';

/**
 * Refuses (ConfigError) a config whose channels serve a model nothing prices, since every call
 * of it would be refused with `model_price_missing`; with `billing.allow_free_models` on, those
 * models are served free and come back as warnings.
 */
export function assertServedModelsPriced(config: GatewayConfig, configFile: string): ConfigProblem[] {
  const unpriced = unpricedModels(config, configLineFinder(configFile));
  if (unpriced.length > 0 && !config.billing.allow_free_models) throw new ConfigError(configFile, unpriced);
  return unpriced;
}

/**
 * Runs every check `start` runs on a config file, creating nothing: the file and its schema,
 * workers against storage, prices, every plugin loaded with its options parsed, the
 * translators. Throws {@link ConfigError} listing every problem by path and line; else the
 * config and its warnings. What `config check` runs, and what a reload's sender (the cluster
 * primary, `model-gateway reload`) checks before it asks the gateway.
 */
export async function checkConfigFile(configFile: string): Promise<{ config: GatewayConfig; warnings: ConfigProblem[] }> {
  const { config } = loadConfigFile(configFile);
  assertWorkersFitStorage(config, configFile);
  const freeModels = assertServedModelsPriced(config, configFile);
  const renamedPlugins: ConfigProblem[] = [];
  await checkProviderPlugins(config.providers, configFile, (path, message) => renamedPlugins.push({ path, message }));
  await loadTranslators(config.translators, configFile);
  return { config, warnings: [...unusedStorageKeys(config.storage), ...freeModels, ...renamedPlugins] };
}
