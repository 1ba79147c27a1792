/** The gx error envelope, a google.rpc.Status (upstreams.md §1.10). */
export interface GxErrorBody {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const defaultMessages: Record<number, string> = {
  400: 'Request contains an invalid argument.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  429: 'You exceeded your current quota, please check your plan.',
  500: 'An internal error has occurred. Please retry or report the problem.',
  503: 'The model is overloaded. Please try again later.',
  504: 'Deadline expired before operation could complete.',
};

/**
 * The body gx sends for an HTTP status. A 429 carries QuotaFailure and RetryInfo (34.4s)
 * exactly as in fixtures gemini-error-429.json, because clients read `retryDelay` from it.
 */
export function gxErrorBody(status: number, message?: string): GxErrorBody {
  const body: GxErrorBody = {
    error: {
      code: status,
      message: message ?? defaultMessages[status] ?? `HTTP ${status}`,
      status: statusNames[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'),
    },
  };
  if (status === 429) {
    body.error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
    ];
  }
  return body;
}

const invalidKeyMessage = 'API key not valid. Please pass a valid API key.';

/** A wrong key is a 400, not a 401, on gx (upstreams.md §1.10). */
export function invalidApiKeyBody(): GxErrorBody {
  return {
    error: {
      code: 400,
      message: invalidKeyMessage,
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
        { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: invalidKeyMessage },
      ],
    },
  };
}

/**
 * No key at all is a 403. The wording is Google's generic one for unidentified callers,
 * seen in many public client tests; upstreams.md does not record this case.
 */
export function missingApiKeyBody(): GxErrorBody {
  return {
    error: {
      code: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      status: 'PERMISSION_DENIED',
    },
  };
}
