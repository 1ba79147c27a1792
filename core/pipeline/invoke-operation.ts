import type { OperationCall, OperationName } from '../contracts/provider/operation-call.js';
import type { OperationHandler, OperationResult } from '../contracts/provider/operation-results.js';
import { operationResultKinds, type OperationResults } from '../contracts/operation-results.js';
import { wrongResultKind } from '../errors/error-codes.js';
import type { Channel } from '../routing/channel.js';

/**
 * Calls `operation` on `channel`'s provider: where every answer of a provider enters core.
 * Its type says which kinds of result the operation answers (`OperationResults`), so core
 * trusts it from here on; a plugin in plain JavaScript is not held to the type, so the kind is
 * checked here, once: a wrong kind (a task's progress for a chat) is a 502 (`wrongResultKind`),
 * its unread body released.
 */
export async function invokeOperation<Name extends OperationName>(channel: Channel, operation: Name, call: OperationCall<unknown>): Promise<OperationResults[Name]> {
  const handler = channel.provider.operations[operation] as OperationHandler<unknown, unknown, OperationResult>;
  const result = await handler(call);
  const kinds: readonly string[] = operationResultKinds[operation];
  const kind = (result as { kind?: unknown } | null | undefined)?.kind;
  if (typeof kind === 'string' && kinds.includes(kind)) return result as OperationResults[Name];
  const body = (result as { body?: { dump?: () => Promise<void> } } | null | undefined)?.body;
  if (typeof body?.dump === 'function') void body.dump().catch(() => {});
  throw wrongResultKind(operation, typeof kind === 'string' ? `a result of kind ${JSON.stringify(kind)}` : 'no result', kinds, operation !== 'video.submit');
}
