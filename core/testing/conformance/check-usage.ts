import type { Usage } from '../../contracts/usage.js';

const counts = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'reasoningTokens'] as const;
const optionalCounts = ['images', 'seconds', 'characters', 'minutes'] as const;

const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * What is wrong with a usage billing would read, or undefined: the four token counts are
 * finite and not negative, the parts (cached, reasoning) fit in their wholes, the optional
 * amounts are counts too, and `source` says who counted.
 */
export function usageProblem(usage: unknown): string | undefined {
  if (typeof usage !== 'object' || usage === null) return `expected a usage object, got ${JSON.stringify(usage)}`;
  const value = usage as Record<string, unknown>;
  for (const name of counts) if (!isCount(value[name]) || !Number.isInteger(value[name])) return `${name} must be a whole number of tokens, not below zero (got ${JSON.stringify(value[name])})`;
  for (const name of optionalCounts) if (value[name] !== undefined && !isCount(value[name])) return `${name} must be a count, not below zero (got ${JSON.stringify(value[name])})`;
  const checked = usage as Usage;
  if (checked.cachedInputTokens > checked.inputTokens) return `cachedInputTokens (${checked.cachedInputTokens}) are part of inputTokens (${checked.inputTokens}) and cannot exceed them`;
  if (checked.reasoningTokens > checked.outputTokens) return `reasoningTokens (${checked.reasoningTokens}) are part of outputTokens (${checked.outputTokens}) and cannot exceed them`;
  if (checked.source !== 'upstream' && checked.source !== 'estimated') return `source must be "upstream" or "estimated" (got ${JSON.stringify(checked.source)})`;
  if (checked.resolution !== undefined && typeof checked.resolution !== 'string') return `resolution must be a string such as "720p"`;
  return undefined;
}
