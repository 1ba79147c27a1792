const errorKinds: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again in 1s.' },
};

/** OpenAI's error body for `status` (upstreams.md §2.1): all four keys, always present. */
export function openAiErrorBody(status: number, message?: string, param: string | null = null, code?: string | null): { error: Record<string, unknown> } {
  const kind = errorKinds[status] ?? { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' };
  return { error: { message: message ?? kind.message, type: kind.type, param, code: code === undefined ? kind.code : code } };
}

/** The 400 for a required field the request lacks. */
export const missingParameterBody = (param: string) =>
  openAiErrorBody(400, `Missing required parameter: '${param}'.`, param, 'missing_required_parameter');

/** The 400 for a field of the wrong JSON type, naming the type it got as OpenAI words it. */
export const invalidTypeBody = (param: string, expected: string, value: unknown) =>
  openAiErrorBody(400, `Invalid type for '${param}': expected ${expected}, but got ${jsonTypeName(value)} instead.`, param, 'invalid_type');

/** The 400 for a value outside the allowed ones. */
export const invalidValueBody = (param: string, message: string) => openAiErrorBody(400, message, param, 'invalid_value');

function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return 'a boolean';
  return 'a string';
}
