import { z } from 'zod';
import type { OperationName } from '../contracts/provider/operation-call.js';
import { operationResultKinds } from '../contracts/operation-results.js';
import { isPipelineOperation } from '../pipeline/operation-invocation.js';

const isFunction = (value: unknown) => typeof value === 'function';

/**
 * What a translator may be called for and may call: the operations a model request runs
 * through the pipeline whose answers are JSON or a stream, the two a translator turns back.
 */
const translatableOperations = (Object.keys(operationResultKinds) as OperationName[]).filter(
  (name) => isPipelineOperation(name) && operationResultKinds[name].every((kind) => kind === 'json' || kind === 'stream'),
);
const operation = (what: string) =>
  z.enum(translatableOperations as [OperationName, ...OperationName[]], { error: `${what} must be an operation answering JSON or a stream: ${translatableOperations.join(', ')}` });
const method = (name: string) => z.custom<(...parameters: unknown[]) => unknown>(isFunction, { error: `${name} must be a function` });

/**
 * What a translator module's default export must look like; checked when the gateway starts,
 * before anything is called, as a provider plugin's is: a name, the client's operation, the
 * operations it serves that one with (never the client's own), and its functions (`stream` only where the client's operation streams).
 */
export const translatorExportSchema = z
  .object({
    name: z.string({ error: 'name must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'name must be letters, digits, ".", "_" or "-"' }),
    client: operation('client'),
    served: z.array(operation('each of served'), { error: 'served must be a list of operations' }).min(1, { error: 'served must name at least one operation' }),
    request: method('request'),
    answer: method('answer'),
    // Optional in the contract: a translator whose client operation never streams (embeddings) has none.
    stream: method('stream').optional(),
  })
  .refine((translator) => !translator.served.includes(translator.client), { error: 'served must not include client: a provider that implements it is called directly' });
