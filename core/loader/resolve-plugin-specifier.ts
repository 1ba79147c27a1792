import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const builtInDirectory = fileURLToPath(new URL('../../providers/', import.meta.url));

/** Where a `providers[].plugin` value points, and how it was read. */
export interface ResolvedPlugin {
  kind: 'built-in' | 'path' | 'package';
  /** A file URL to import. */
  url: string;
  /** Set when the value is a built-in name that was renamed: a warning that names its replacement. */
  warning?: string;
}

/**
 * Extra names of the built-in folders, from `providers/family-names` (see that module): a
 * family word and the folder that answers to it; a renamed folder and its new name.
 */
export interface BuiltInNames {
  aliases: Readonly<Record<string, string>>;
  renamed: Readonly<Record<string, string>>;
}

const noNames: BuiltInNames = { aliases: {}, renamed: {} };
let namesLoaded: Promise<BuiltInNames> | undefined;

/** Reads `providers/family-names` once; a build without it has no extra names. */
export function loadBuiltInNames(): Promise<BuiltInNames> {
  namesLoaded ??= (async () => {
    for (const extension of ['js', 'ts']) {
      const file = `${builtInDirectory}family-names.${extension}`;
      if (existsSync(file)) return ((await import(pathToFileURL(file).href)) as { familyNames: BuiltInNames }).familyNames;
    }
    return noNames;
  })();
  return namesLoaded;
}

/** The file URL of `directory/name/index.(js|ts)`, the module of a built-in folder; undefined when there is none. */
export function builtInFolder(name: string, directory = builtInDirectory): string | undefined {
  for (const extension of ['js', 'ts']) {
    const file = `${directory}${name}/index.${extension}`;
    if (existsSync(file)) return pathToFileURL(file).href;
  }
  return undefined;
}

/**
 * Resolves a plugin specifier. A bare name that is a folder under `providers/` with an
 * index module is a built-in family, and so is a family word that folder answers to (`wn` and
 * `hx` for `wn-hx`), or a folder's old name (loaded with a warning); the core keeps no list
 * of them, it only looks. A value starting with `.` or `/` is a path relative to the config
 * file. Anything else is an npm package, resolved from the config file's folder as `require`
 * would (so a package must export a `default` or `require` condition).
 */
export function resolvePluginSpecifier(specifier: string, configFile: string, names: BuiltInNames = noNames): ResolvedPlugin {
  if (/^[a-z0-9][a-z0-9-]*$/.test(specifier)) {
    const url = builtInFolder(specifier) ?? builtInFolder(names.aliases[specifier] ?? '');
    if (url !== undefined) return { kind: 'built-in', url };
    const renamed = names.renamed[specifier];
    const renamedUrl = renamed === undefined ? undefined : builtInFolder(renamed);
    if (renamed !== undefined && renamedUrl !== undefined) {
      const answersTo = Object.entries(names.aliases).filter(([, folder]) => folder === renamed).map(([alias]) => alias);
      const instead = answersTo.length > 0 ? `"${answersTo.join('" or "')}"` : `"${renamed}"`;
      return { kind: 'built-in', url: renamedUrl, warning: `plugin "${specifier}" is an old name of the built-in "${renamed}" plugin; write plugin: ${instead} instead (the old name still loads in this release only)` };
    }
  }
  try {
    return resolveOutsideModule(specifier, configFile);
  } catch (error) {
    // A bare name that is not a package was most likely meant as a family: list them.
    if (!/^[a-z0-9][a-z0-9-]*$/.test(specifier)) throw error;
    throw new Error(`${(error as Error).message}; the built-in families are ${builtInFamilyNames(names).join(', ')}`);
  }
}

/** Every name a built-in plugin loads by: the folders of `providers/` with an index module and the family words they answer to, sorted. */
export function builtInFamilyNames(names: BuiltInNames = noNames, directory = builtInDirectory): string[] {
  const folders = existsSync(directory)
    ? readdirSync(directory, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && builtInFolder(entry.name, directory) !== undefined)
        .map((entry) => entry.name)
    : [];
  const words = Object.entries(names.aliases)
    .filter(([, folder]) => folders.includes(folder))
    .map(([word]) => word);
  return [...new Set([...folders, ...words])].sort();
}

/**
 * A module that is not built in (`builtIn` names what a bare name would have been): a value starting with `.` or `/` is a path relative to the
 * config file; anything else is an npm package, resolved from the config file's folder as
 * `require` would (so a package must export a `default` or `require` condition).
 */
export function resolveOutsideModule(specifier: string, configFile: string, builtIn = 'built-in family'): { kind: 'path' | 'package'; url: string } {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const file = resolve(dirname(resolve(configFile)), specifier);
    if (!existsSync(file)) throw new Error(`no file at ${file}`);
    return { kind: 'path', url: pathToFileURL(file).href };
  }
  const require = createRequire(resolve(configFile));
  try {
    return { kind: 'package', url: pathToFileURL(require.resolve(specifier)).href };
  } catch {
    throw new Error(`"${specifier}" is neither a ${builtIn}, a path (start it with ./), nor an installed package`);
  }
}
