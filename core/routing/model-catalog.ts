import type { GatewayConfig } from '../config/config-schema.js';
import { ModelAliases } from './model-aliases.js';
import { matchesModelPattern } from './model-pattern.js';

/**
 * Which models each group can reach, built once from the config's channels and aliases.
 * Listings show exact names (and `model_map` keys) and the aliases of models the groups reach;
 * patterns such as `gx-3*` match on lookup.
 */
export class ModelCatalog {
  readonly #entriesByGroup = new Map<string, { names: Set<string>; patterns: string[] }>();
  readonly #autoGroups: readonly string[];
  readonly #aliases: ModelAliases;

  constructor(config: Pick<GatewayConfig, 'auto_groups' | 'providers'> & Partial<Pick<GatewayConfig, 'aliases'>>) {
    this.#autoGroups = config.auto_groups;
    this.#aliases = new ModelAliases(config.aliases ?? {});
    for (const provider of config.providers) {
      for (const group of provider.groups) {
        let entry = this.#entriesByGroup.get(group);
        if (entry === undefined) this.#entriesByGroup.set(group, (entry = { names: new Set(), patterns: [] }));
        for (const model of [...provider.models, ...Object.keys(provider.model_map)]) {
          if (model.includes('*')) entry.patterns.push(model);
          else entry.names.add(model);
        }
      }
    }
  }

  /** The groups a token's `group` field stands for: empty is `default`, `auto` walks `auto_groups`. */
  groupsOf(tokenGroup: string): readonly string[] {
    if (tokenGroup === 'auto') return this.#autoGroups;
    return [tokenGroup === '' ? 'default' : tokenGroup];
  }

  /** The model a client's name stands for: an alias's target, any other name itself. */
  resolve(model: string): string {
    return this.#aliases.resolve(model);
  }

  /** Exact model names reachable from the groups, and the aliases of those the groups reach, sorted. */
  list(groups: readonly string[]): string[] {
    const names = new Set<string>();
    for (const group of groups) for (const name of this.#entriesByGroup.get(group)?.names ?? []) names.add(name);
    for (const [alias, model] of this.#aliases.entries()) if (this.#served(groups, model)) names.add(alias);
    return [...names].sort();
  }

  /** True when some channel in the groups serves the model, or the model an alias stands for. */
  serves(groups: readonly string[], model: string): boolean {
    return this.#served(groups, this.#aliases.resolve(model));
  }

  #served(groups: readonly string[], model: string): boolean {
    return groups.some((group) => {
      const entry = this.#entriesByGroup.get(group);
      return entry !== undefined && (entry.names.has(model) || entry.patterns.some((pattern) => matchesModelPattern(pattern, model)));
    });
  }
}
