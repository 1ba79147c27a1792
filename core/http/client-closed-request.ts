import { GatewayError } from '../errors/gateway-error.js';

/**
 * The error for an outbound call the caller aborted, usually because the client went away:
 * 499 `client_closed_request`, not retryable (it is logged, never sent). When the caller
 * aborted with a gateway error of its own as the reason, that error is kept as it is.
 */
export function clientClosedRequest(reason: unknown): GatewayError {
  if (GatewayError.is(reason)) return reason;
  return new GatewayError(499, 'client_closed_request', 'the client closed the request', { cause: reason });
}
