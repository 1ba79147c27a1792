import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Provider } from '../../contracts/provider/provider.js';
import type { ProviderHost } from '../../contracts/provider/provider-host.js';
import type { ProviderPlugin } from '../../contracts/provider/provider-plugin.js';
import { pluginExportSchema } from '../../loader/plugin-export-schema.js';
import { describeThrown, type CheckList } from './conformance-report.js';
import { operationNames } from './operation-kinds.js';

/** A plugin module: its path or file URL, the imported module, or its default export. */
export type PluginSource = string | URL | object;

async function importPlugin(source: PluginSource): Promise<unknown> {
  if (typeof source === 'object' && !(source instanceof URL)) return 'default' in source ? (source as { default: unknown }).default : source;
  const url = source instanceof URL || /^file:/.test(source) ? String(source) : pathToFileURL(isAbsolute(source) ? source : resolve(source)).href;
  const module = (await import(url)) as { default?: unknown };
  return module.default;
}

/**
 * Loads the plugin and checks what the gateway checks when it starts: the default export's
 * shape (the same schema the loader uses), the options schema on the channel options the
 * author says are valid and on each they say are not, and `create` answering a provider whose
 * operations are ones the contract knows. Resolves with the plugin and its provider, or
 * undefined when a failure leaves nothing to call.
 */
export async function checkPluginExport(
  checks: CheckList,
  source: PluginSource,
  options: unknown,
  invalidOptions: readonly unknown[],
  host: ProviderHost,
): Promise<{ plugin: ProviderPlugin; parsedOptions: unknown; provider: Provider } | undefined> {
  let exported: unknown;
  try {
    exported = await importPlugin(source);
  } catch (error) {
    checks.fail('the plugin module loads', describeThrown(error));
    return undefined;
  }
  const shape = pluginExportSchema.safeParse(exported);
  const shapeProblem = exported === undefined ? 'the module has no default export' : shape.success ? undefined : shape.error.issues.map((issue) => issue.message).join('; ');
  if (!checks.expect('the default export is a provider plugin (apiVersion, name, options schema, create, prepare)', shapeProblem)) return undefined;
  const plugin = exported as ProviderPlugin;

  const parsed = plugin.options.safeParse(options);
  if (!checks.expect('the options schema accepts the channel options of the suite', parsed.success ? undefined : `refused: ${parsed.error?.message}`)) return undefined;
  checks.expect('the suite is given channel options the schema must refuse', invalidOptions.length === 0 ? 'pass invalidOptions: at least one options block a channel must not start with' : undefined);
  for (const [index, invalid] of invalidOptions.entries()) {
    const refused = !plugin.options.safeParse(invalid).success;
    checks.expect(`the options schema refuses invalidOptions[${index}]`, refused ? undefined : `it accepted ${JSON.stringify(invalid)}; a channel configured so would start`);
  }

  let provider: Provider;
  try {
    provider = await plugin.create(parsed.data, host);
  } catch (error) {
    checks.fail('create() answers a provider', `it threw ${describeThrown(error)}`);
    return undefined;
  }
  if (!checks.expect('create() answers a provider', typeof provider?.operations === 'object' && provider.operations !== null ? undefined : 'expected an object with `operations`')) return undefined;
  const unknown = Object.keys(provider.operations).filter((name) => !(operationNames as string[]).includes(name));
  const declared = Object.keys(provider.operations).filter((name) => typeof (provider.operations as Record<string, unknown>)[name] === 'function');
  checks.expect(
    'the provider declares only operations of the contract, each a function',
    unknown.length > 0 ? `unknown operations: ${unknown.join(', ')}` : declared.length === 0 ? 'it declares no operation' : declared.length < Object.keys(provider.operations).length ? 'an operation is not a function' : undefined,
    declared.join(', '),
  );
  return { plugin, parsedOptions: parsed.data, provider };
}
