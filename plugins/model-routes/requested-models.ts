import { z } from 'zod';
import { fieldError, parseClientInput } from '../../core/validation/parse-client-input.js';

/** The most models a request may list; a longer chain is more likely a mistake than a plan. */
const maxRequestedModels = 8;

const modelsSchema = z
  .array(z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }), { error: 'expected a list of model names' })
  .min(1, { error: 'expected at least one model' })
  .max(maxRequestedModels, { error: `expected at most ${maxRequestedModels} models` });

/**
 * The `models` field of a chat, Responses or Messages body (the shape OpenRouter made common):
 * the models to try in order. It is taken off the body, so the format's own strict schema and
 * a pass-through upstream never see it; `model` may then be left out and is the list's first.
 * With both, `model` goes first and the list follows it. Undefined when the body lists none.
 */
export function takeRequestedModels(body: unknown): { body: unknown; models: string[] | undefined } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, 'models')) return { body, models: undefined };
  const { models: listed, ...rest } = body as Record<string, unknown>;
  const models = parseClientInput(z.object({ models: modelsSchema }), { models: listed }).models;
  const model = rest.model;
  if (model === undefined) return { body: { ...rest, model: models[0] }, models };
  if (typeof model !== 'string') throw fieldError('model', 'expected a model name');
  return { body: rest, models: [model, ...models.filter((entry) => entry !== model)] };
}
