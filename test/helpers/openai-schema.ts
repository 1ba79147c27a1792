import type { Test } from 'tap';
import { escapePointer, openAiDescription } from './openai-openapi-description.js';
import type { SchemaAllowance } from './openai-schema-allowances.js';
import { errorLines, explainFailure } from './openai-schema-explanation.js';
import { compiledDescription } from './openai-schema-validators.js';

export { openAiSchemaAllowances, type SchemaAllowance } from './openai-schema-allowances.js';

/**
 * Validates one body against a component schema of OpenAI's OpenAPI description
 * (`CreateChatCompletionResponse`, `ResponseStreamEvent`, `ImagesResponse`...), widened by
 * `allowances` and nothing else. Returns one readable line per difference (where, what the
 * description wants, what was found), `[]` when the body matches.
 */
export function openAiSchemaErrors(schema: string, body: unknown, allowances: readonly SchemaAllowance[] = []): string[] {
  if (openAiDescription().schemas[schema] === undefined) throw new Error(`OpenAI's description has no component schema ${schema}`);
  const description = compiledDescription();
  const pointer = `/components/schemas/${escapePointer(schema)}`;
  return description.validate(allowances, () => (description.validatorAt(pointer)(body) ? [] : errorLines(explainFailure(description, pointer, body), body)));
}

/** What {@link assertOpenAiSchema} is told besides the schema and the bodies. */
export interface OpenAiSchemaCheckOptions {
  /** What the bodies are, for the assertions' names: `'every chunk of a gx chat stream'`. */
  what: string;
  /** The allowances these bodies need, from `openAiSchemaAllowances`; each must be needed by at least one body. */
  allow?: readonly SchemaAllowance[];
}

/**
 * Asserts that every body (one answer, or each event of a stream) matches `schema` of OpenAI's
 * description, listing the differences body by body, and that each allowance passed is needed
 * by at least one of them (so none outlives the difference it was made for).
 */
export function assertOpenAiSchema(t: Test, schema: string, bodies: readonly unknown[], options: OpenAiSchemaCheckOptions): void {
  const allowances = options.allow ?? [];
  t.ok(bodies.length > 0, `${options.what}: there is something to check`);
  const differences = bodies.flatMap((body, index) => {
    const lines = openAiSchemaErrors(schema, body, allowances);
    return lines.length === 0 ? [] : [`${bodies.length > 1 ? `body ${index}: ` : ''}${lines.join('; ')}`];
  });
  t.strictSame(differences, [], `${options.what} match ${schema} of OpenAI's description ${openAiDescription().version}`);
  if (differences.length > 0 || allowances.length === 0) return;
  const unneeded = allowances.filter((allowance) => {
    const others = allowances.filter((other) => other !== allowance);
    return bodies.every((body) => openAiSchemaErrors(schema, body, others).length === 0);
  });
  t.strictSame(
    unneeded.map((allowance) => allowance.name),
    [],
    `${options.what}: every allowance passed is needed`,
  );
}
