import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, formatYamlPath, type ConfigProblem } from '../config/config-error.js';
import { configLineFinder } from '../config/config-lines.js';
import type { Translator } from '../contracts/translator.js';
import { builtInFolder, resolveOutsideModule } from './resolve-plugin-specifier.js';
import { translatorExportSchema } from './translator-export-schema.js';

const builtInDirectory = fileURLToPath(new URL('../../translators/', import.meta.url));

/** The built-in translators: every folder of `translators/` with an index module, by name. */
export function builtInTranslatorNames(directory = builtInDirectory): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && builtInFolder(entry.name, directory) !== undefined)
    .map((entry) => entry.name)
    .sort();
}

/** A bare name is a built-in folder of `translators/`; anything else a path or a package, as a provider plugin's is. */
function translatorUrl(specifier: string, configFile: string, directory: string): string {
  const builtIn = /^[a-z0-9][a-z0-9-]*$/.test(specifier) ? builtInFolder(specifier, directory) : undefined;
  return builtIn ?? resolveOutsideModule(specifier, configFile, 'built-in translator').url;
}

/**
 * Loads the config's `translators` when the gateway starts, in their order (which decides
 * between two that could serve one channel): each is resolved, imported and its default export
 * checked, as a provider plugin is. Without the key every built-in translator loads; an empty
 * list loads none. Every problem is collected and reported at once, by YAML path; any problem
 * fails the start.
 */
export async function loadTranslators(specifiers: readonly string[] | undefined, configFile: string, directory = builtInDirectory): Promise<Translator[]> {
  const listed = specifiers ?? builtInTranslatorNames(directory);
  const problems: ConfigProblem[] = [];
  const translators: Translator[] = [];
  const names = new Map<string, number>();
  const lineOf = configLineFinder(configFile);
  for (const [index, specifier] of listed.entries()) {
    // A default list has no YAML behind it: its problems are the built-in folder's.
    const where = specifiers === undefined ? `translators (built-in "${specifier}")` : formatYamlPath(['translators', index]);
    const line = specifiers === undefined ? undefined : lineOf(['translators', index]);
    let exported: unknown;
    try {
      exported = ((await import(translatorUrl(specifier, configFile, directory))) as { default?: unknown }).default;
    } catch (error) {
      problems.push({ path: where, message: `cannot load "${specifier}": ${(error as Error).message}`, line });
      continue;
    }
    const checked = translatorExportSchema.safeParse(exported);
    if (!checked.success) {
      const detail = exported === undefined ? 'the module has no default export' : checked.error.issues.map((issue) => issue.message).join('; ');
      problems.push({ path: where, message: `"${specifier}" is not a translator: ${detail}`, line });
      continue;
    }
    const translator = exported as Translator;
    const first = names.get(translator.name);
    if (first !== undefined) {
      problems.push({ path: where, message: `"${specifier}" is named "${translator.name}", as translators[${first}] is; names tell translators apart in logs and metrics`, line });
      continue;
    }
    names.set(translator.name, index);
    translators.push(translator);
  }
  if (problems.length > 0) throw new ConfigError(configFile, problems);
  return translators;
}
