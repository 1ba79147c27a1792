import type { RequestContext } from '../request-context.js';

/**
 * The request's one log line, written when it is over: a stream's when it ends, with how it
 * ended (`end`: `completed`, `client_gone`, the error's code, or `accepted` for a task) and
 * whether its usage came from the upstream or the gateway's estimate. A request that failed
 * (`context.failure`) is a warning with its status and code.
 */
export function writeLogLine(context: RequestContext, end?: string): void {
  const { invocation, usage, failure } = context;
  const line = {
    model: context.model,
    operation: context.operation,
    stream: invocation.stream,
    token: context.token.id,
    attempts: context.attempts,
    ...(end === undefined ? {} : { end }),
    ...(usage === undefined ? {} : { usage_source: usage.source }),
  };
  if (failure === undefined) invocation.logger.info(line, 'model request answered');
  else invocation.logger.warn({ ...line, status: failure.statusCode, code: failure.code }, 'model request failed');
}
