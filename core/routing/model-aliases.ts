import { matchesModelPattern } from './model-pattern.js';

/** The part of the config aliases are resolved against: the aliases and the channels' models. */
export interface AliasedConfig {
  aliases: Readonly<Record<string, string>>;
  providers: readonly { name: string; models: readonly string[]; model_map: Readonly<Record<string, string>> }[];
}

/** One problem of `aliases`, by the alias it is found at. */
export interface AliasProblem {
  alias: string;
  message: string;
}

/** True when some channel lists `model`: exactly, by a pattern, or as a `model_map` key. */
function channelServing(config: AliasedConfig, model: string): string | undefined {
  return config.providers.find(
    (provider) => Object.hasOwn(provider.model_map, model) || provider.models.some((entry) => (entry.includes('*') ? matchesModelPattern(entry, model) : entry === model)),
  )?.name;
}

/**
 * What is wrong with the config's `aliases`, checked when the config loads (so `config check`
 * and `start` refuse it): an alias that is also a model a channel serves (a request for it
 * would be ambiguous), a chain that comes back to itself, and a chain that ends at a model no
 * channel serves.
 */
export function aliasProblems(config: AliasedConfig): AliasProblem[] {
  const problems: AliasProblem[] = [];
  for (const alias of Object.keys(config.aliases)) {
    const served = channelServing(config, alias);
    if (served !== undefined) {
      problems.push({ alias, message: `"${alias}" is also a model channel ${served} serves; rename the alias or remove the model from the channel` });
      continue;
    }
    const chain = [alias];
    let model = config.aliases[alias] as string;
    while (Object.hasOwn(config.aliases, model) && !chain.includes(model)) {
      chain.push(model);
      model = config.aliases[model] as string;
    }
    if (chain.includes(model)) {
      problems.push({ alias, message: `${[...chain, model].join(' → ')} is a cycle; make one of them name a model a channel serves` });
    } else if (channelServing(config, model) === undefined) {
      problems.push({ alias, message: `${[...chain, model].join(' → ')} ends at "${model}", which no channel serves; name a model of a channel's models or model_map` });
    }
  }
  return problems;
}

/**
 * The config's model aliases, resolved once at start: each alias (directly or through a chain
 * of aliases) to the model a channel serves. A name that is no alias resolves to itself.
 */
export class ModelAliases {
  readonly #targets = new Map<string, string>();

  /** `config` must have passed {@link aliasProblems}; a chain is followed to its end. */
  constructor(aliases: Readonly<Record<string, string>>) {
    for (const alias of Object.keys(aliases)) {
      let model = aliases[alias] as string;
      const seen = new Set([alias]);
      while (Object.hasOwn(aliases, model) && !seen.has(model)) {
        seen.add(model);
        model = aliases[model] as string;
      }
      this.#targets.set(alias, model);
    }
  }

  /** The model `model` stands for: its alias target, or itself. */
  resolve(model: string): string {
    return this.#targets.get(model) ?? model;
  }

  /** True when `model` is an alias. */
  isAlias(model: string): boolean {
    return this.#targets.has(model);
  }

  /** Every alias with the model it resolves to, in config order. */
  entries(): IterableIterator<[string, string]> {
    return this.#targets.entries();
  }
}
