import { answeredBy, type RequestContext } from '../request-context.js';

/**
 * The request's one log line (`invocation.line`), written when it is over: a
 * stream's when it ends, with how it ended (`end`: `completed`, `client_gone`, the error's
 * code, or `accepted` for a task). Its usage: the tokens billed, and whether they came from
 * the upstream or the gateway's estimate. A request that failed (`context.failure`) is a
 * warning with its status and code; an answer's status is the one it went out with (a
 * stream's is the 200 its headers carried). `translator` names the translator that served the
 * answer in the client's format, when one did; a request its provider served itself has none.
 * `model` is the model it was routed as; `alias`, when the client called it by an alias, that alias.
 */
export function writeLogLine(context: RequestContext, end?: string, status?: number): void {
  const { invocation, usage, failure } = context;
  // One object literal of one shape; undefined fields are left out of the line.
  const fields = {
    route: undefined,
    path: undefined,
    status: undefined,
    milliseconds: undefined,
    model: context.model,
    // Only an alias puts a second name on the line: the one the client called the model by.
    alias: context.requestedModel === context.model ? undefined : context.requestedModel,
    operation: context.operation,
    stream: invocation.stream,
    token: context.token.id,
    attempts: context.attempts,
    translator: answeredBy(context),
    end,
    input_tokens: usage?.inputTokens,
    output_tokens: usage?.outputTokens,
    usage_source: usage?.source,
    code: failure?.code,
  };
  if (failure === undefined) invocation.line.write('info', status ?? 200, fields, 'model request answered');
  else invocation.line.write('warn', failure.statusCode, fields, 'model request failed');
}
