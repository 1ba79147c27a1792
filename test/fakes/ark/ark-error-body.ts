import { randomBytes } from 'node:crypto';

/** An Ark error body: `{"error": {code, message, param, type}}`, keys in that order (upstreams.md §3.1). */
export interface ArkErrorBody {
  error: { code: string; message: string; param: string; type: string };
}

const kinds: Record<number, { code: string; type: string; message: string }> = {
  400: { code: 'InvalidParameter', type: 'BadRequest', message: 'One or more parameters specified in the request are not valid.' },
  401: { code: 'AuthenticationError', type: 'Unauthorized', message: 'the API key or AK/SK in the request is missing or invalid.' },
  403: { code: 'AccessDenied', type: 'Forbidden', message: 'You do not have access to the requested resource.' },
  404: { code: 'InvalidEndpointOrModel.NotFound', type: 'NotFound', message: 'The model or endpoint does not exist or you do not have access to it.' },
  429: { code: 'RateLimitExceeded.EndpointRPMExceeded', type: 'TooManyRequests', message: 'The request has exceeded the RPM rate limit of your endpoint. Please try again later.' },
  500: { code: 'InternalServiceError', type: 'InternalServerError', message: 'The service encountered an unexpected internal error.' },
};

/** The safety filter's codes and messages; the output one is worded as in fixture ark-seedream-image-responses.json. */
export const arkSensitiveErrors = {
  input_text: { code: 'InputTextSensitiveContentDetected', message: 'The request failed because the input text may contain sensitive information.' },
  input_image: { code: 'InputImageSensitiveContentDetected', message: 'The request failed because the input image may contain sensitive information.' },
  output_image: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' },
} as const;

/** A request id in Ark's style: `0217` and a long run of digits and hex. */
export const arkRequestId = (): string => `0217${Date.now()}${randomBytes(12).toString('hex')}`;

/**
 * Ark's error body for `status`. Messages end with the request id, as Ark's do (the 401's
 * in lower case, as recorded). Statuses without a kind of their own get the 500's code and type.
 */
export function arkErrorBody(status: number, options: { message?: string; code?: string; param?: string; requestId?: string } = {}): ArkErrorBody {
  const kind = kinds[status] ?? kinds[500]!;
  const requestId = options.requestId ?? arkRequestId();
  const message = options.message ?? kind.message;
  const suffix = status === 401 && options.message === undefined ? ` request id: ${requestId}` : ` Request id: ${requestId}`;
  return { error: { code: options.code ?? kind.code, message: `${message}${suffix}`, param: options.param ?? '', type: kind.type } };
}

/** The 400 for a parameter Ark refuses, worded as upstreams.md §3.1 and §3.5 quote it. */
export const arkInvalidParameterBody = (param: string, why: string, requestId?: string): ArkErrorBody =>
  arkErrorBody(400, { code: 'InvalidParameter', param, message: `The parameter \`${param}\` specified in the request is not valid: ${why}.`, requestId });
