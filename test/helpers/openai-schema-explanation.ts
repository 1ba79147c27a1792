import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaNode } from './openai-openapi-description.js';
import { allowanceGate, type CompiledDescription } from './openai-schema-validators.js';

/** The value at a JSON pointer of the body. */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const segment of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

type UnionKeyword = 'anyOf' | 'oneOf';
const isUnion = (error: ErrorObject): error is ErrorObject & { keyword: UnionKeyword } => error.keyword === 'anyOf' || error.keyword === 'oneOf';
const atOrBelow = (error: ErrorObject, path: string) => error.instancePath === path || error.instancePath.startsWith(`${path}/`);

/** The properties a union's branches are told apart by: its discriminator's, then the usual tags. */
function tagNames(union: SchemaNode): string[] {
  const discriminator = (union.discriminator as { propertyName?: string } | undefined)?.propertyName;
  return [...(discriminator === undefined ? [] : [discriminator]), 'type', 'object'];
}

/**
 * Why `body` fails the node at `pointer` (`at` is where the body sits in the whole answer):
 * Ajv's errors, except that a failed union (`anyOf`/`oneOf`; `ResponseStreamEvent` is one of
 * some 50 event schemas) is explained by the branch the body meant ({@link meantBranch}) alone,
 * since every other branch's errors only say that the body is not of that other kind.
 */
export function explainFailure(description: CompiledDescription, pointer: string, body: unknown, at = ''): ErrorObject[] {
  const validate = description.validatorAt(pointer);
  if (validate(body)) return [];
  const errors = (validate.errors ?? []).map((error) => ({ ...error, instancePath: `${at}${error.instancePath}` }));
  const unions: Array<ErrorObject & { keyword: UnionKeyword }> = [];
  // Outermost first: a union inside an explained branch is that branch's explanation's to
  // explain. Ajv reports a union after its branches' errors, so of two unions at one place
  // (a union whose branch is a union) the later is the outer.
  const outermostFirst = errors
    .map((error, index) => ({ error, index }))
    .filter(({ error }) => isUnion(error))
    .sort((a, b) => a.error.instancePath.length - b.error.instancePath.length || b.index - a.index)
    .map(({ error }) => error as ErrorObject & { keyword: UnionKeyword });
  for (const union of outermostFirst) {
    if (!unions.some((outer) => atOrBelow(union, outer.instancePath))) unions.push(union);
  }
  // A union's explanation replaces every error at or below its place, but those of the other
  // keywords of the union's own node (a `required` beside the `anyOf`).
  const kept = errors.filter((error) => unions.every((union) => !atOrBelow(error, union.instancePath) || (error !== union && error.parentSchema === union.parentSchema)));
  return [
    ...kept,
    ...unions.flatMap((union) => {
      const unionPointer = description.pointerOf(union.parentSchema);
      return unionPointer === undefined ? [union] : meantBranch(description, unionPointer, union, valueAt(body, union.instancePath.slice(at.length)));
    }),
  ];
}

/**
 * The explanation of the branch of a failed union that the body meant: of the branches, those
 * whose tag (`discriminator.propertyName`, `type`, `object`) allows the body's value, when the
 * branches have one; not the `type: 'null'` half of a nullable schema when the body is not
 * null, nor an allowance's branch; of what is left, the branch with the fewest errors.
 */
function meantBranch(description: CompiledDescription, pointer: string, union: ErrorObject & { keyword: UnionKeyword }, value: unknown): ErrorObject[] {
  const node = description.nodeAt(pointer);
  let candidates = (node[union.keyword] as unknown[])
    .map((_, index) => `${pointer}/${union.keyword}/${index}`)
    .filter((branch) => value === null || description.resolvedAt(branch).type !== 'null')
    // An allowance's branch is not the description's: the explanation is the description's own.
    .filter((branch) => description.nodeAt(branch)[allowanceGate] === undefined);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const tag of tagNames(node)) {
      if (candidates.every((branch) => description.tagValues(branch, tag) === undefined)) continue;
      const found = (value as Record<string, unknown>)[tag];
      const tagged = candidates.filter((branch) => description.tagValues(branch, tag)?.includes(found) === true);
      if (tagged.length === 0) return [{ ...union, keyword: 'tag', message: `has ${tag} ${JSON.stringify(found)}, which none of the ${candidates.length} kinds allowed here has` }];
      candidates = tagged;
      break;
    }
  }
  const explanations = candidates.map((branch) => explainFailure(description, branch, value, union.instancePath));
  // A oneOf fails too when more than one branch matches: then its own error says it all.
  if (explanations.length === 0 || explanations.some((errors) => errors.length === 0)) return [union];
  return explanations.reduce((fewest, errors) => (errors.length < fewest.length ? errors : fewest));
}

/** One readable line per error: where in the body, what the description wants there, and what was found. */
export function errorLines(errors: readonly ErrorObject[], body: unknown): string[] {
  const lines = errors.map((error) => {
    const where = error.instancePath === '' ? 'the body' : error.instancePath;
    if (error.keyword === 'required' || error.keyword === 'tag') return `${where} ${error.message}`;
    const allowed = error.keyword === 'enum' ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(', ')})` : '';
    const found = JSON.stringify(valueAt(body, error.instancePath)) ?? 'nothing';
    return `${where} ${error.message}${allowed}, found ${found.length > 80 ? `${found.slice(0, 77)}...` : found}`;
  });
  return [...new Set(lines)];
}
