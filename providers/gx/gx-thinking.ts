/** The native `generationConfig.thinkingConfig`. */
export interface GxThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: string;
}

const levels = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Reads the spec's thinking suffixes off a model id (spec part 1, "Native endpoints"):
 * `-nothinking` sets a budget of 0; `-thinking-<N>` a budget of N with thoughts returned;
 * `-thinking-low` / `-thinking-high` (and `-minimal`, `-medium`) the 3-generation
 * `thinkingLevel` with thoughts returned; bare `-thinking` returns thoughts at the model's
 * own budget. Budgets are not clamped: the upstream knows each model's range and says so.
 * Returns the model id without the suffix (what the upstream is asked for) and what the
 * suffix asks for (undefined when the id has none).
 */
export function parseGxThinkingSuffix(model: string): { model: string; thinkingConfig: GxThinkingConfig | undefined } {
  if (model.endsWith('-nothinking')) {
    return { model: model.slice(0, -'-nothinking'.length), thinkingConfig: { thinkingBudget: 0 } };
  }
  const match = /^(.+)-thinking(?:-([a-z0-9]+))?$/.exec(model);
  if (match === null) return { model, thinkingConfig: undefined };
  const base = match[1] ?? model;
  const argument = match[2];
  if (argument === undefined) return { model: base, thinkingConfig: { includeThoughts: true } };
  if (/^\d+$/.test(argument)) {
    const budget = Number(argument);
    return { model: base, thinkingConfig: budget > 0 ? { includeThoughts: true, thinkingBudget: budget } : { thinkingBudget: 0 } };
  }
  if (levels.has(argument)) return { model: base, thinkingConfig: { includeThoughts: true, thinkingLevel: argument.toUpperCase() } };
  // Something else after `-thinking-` (a real id such as `...-thinking-exp`): not a suffix.
  return { model, thinkingConfig: undefined };
}

/**
 * `extra_body.gx.thinking_config` in native form. Only the snake_case keys are read and a
 * value of the wrong type is skipped (spec part 1, "extra_body.gx passthrough"):
 * `thinking_budget` above 0 also returns thoughts, 0 or below turns thinking off (budget 0,
 * since the native -1 would mean "dynamic", not "off"); an explicit `include_thoughts` wins
 * over what the budget implied; `thinking_level` is sent upper case.
 */
export function readGxThinkingConfig(value: unknown): GxThinkingConfig | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const options = value as Record<string, unknown>;
  const config: GxThinkingConfig = {};
  const budget = options.thinking_budget;
  if (typeof budget === 'number' && Number.isInteger(budget)) {
    config.thinkingBudget = Math.max(budget, 0);
    if (budget > 0) config.includeThoughts = true;
  }
  if (typeof options.include_thoughts === 'boolean') config.includeThoughts = options.include_thoughts;
  if (typeof options.thinking_level === 'string' && options.thinking_level !== '') config.thinkingLevel = options.thinking_level.toUpperCase();
  return Object.keys(config).length > 0 ? config : undefined;
}

const effortBudgets: Record<string, number> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576 };

/**
 * `reasoning_effort` as a native thinking setting: a `thinkingLevel` on 3-generation models
 * (`none` goes out as the lowest level, `MINIMAL`, since they cannot stop thinking), a
 * budget on older ones (none 0, minimal 512, low 1024, medium 8192, high 24576). Thoughts
 * are not returned: the effort says how hard to think, not what to show.
 */
export function thinkingConfigForEffort(effort: string, model: string): GxThinkingConfig | undefined {
  // The major version in the model id: `gx-2.5-pro` → 2, `gx-3.1-pro-preview` → 3.
  const generation = /^(?:models\/)?[a-z]+-(\d+)/i.exec(model)?.[1];
  if (generation !== undefined && Number(generation) >= 3) return { thinkingLevel: effort === 'none' ? 'MINIMAL' : effort.toUpperCase() };
  const budget = effortBudgets[effort];
  return budget === undefined ? undefined : { thinkingBudget: budget };
}
