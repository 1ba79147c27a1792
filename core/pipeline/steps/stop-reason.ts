import { shuttingDown } from '../../errors/error-codes.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/** The error of a request whose client left before it was answered. */
export const clientClosed = (): GatewayError => new GatewayError(499, 'client_closed_request', 'the client closed the request');

/** Why no (further) attempt may start: the client left, or the shutdown deadline passed. */
export function stopReason(context: RequestContext, services: PipelineServices): GatewayError | undefined {
  if (context.invocation.clientSignal.aborted) return clientClosed();
  return services.inFlight?.deadlinePassed === true ? shuttingDown() : undefined;
}
