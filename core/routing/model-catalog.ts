import type { GatewayConfig } from '../config/config-schema.js';
import { matchesModelPattern } from './model-pattern.js';

/**
 * Which models each group can reach, built once from the config's channels. Listings show
 * exact names (and `model_map` keys); patterns such as `gx-3*` match on lookup.
 */
export class ModelCatalog {
  readonly #entriesByGroup = new Map<string, { names: Set<string>; patterns: string[] }>();
  readonly #autoGroups: readonly string[];

  constructor(config: GatewayConfig) {
    this.#autoGroups = config.auto_groups;
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

  /** Exact model names reachable from the groups, sorted. */
  list(groups: readonly string[]): string[] {
    const names = new Set<string>();
    for (const group of groups) for (const name of this.#entriesByGroup.get(group)?.names ?? []) names.add(name);
    return [...names].sort();
  }

  /** True when some channel in the groups serves the model. */
  serves(groups: readonly string[], model: string): boolean {
    return groups.some((group) => {
      const entry = this.#entriesByGroup.get(group);
      return entry !== undefined && (entry.names.has(model) || entry.patterns.some((pattern) => matchesModelPattern(pattern, model)));
    });
  }
}
