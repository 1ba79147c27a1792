/**
 * Every code the gateway itself puts in an error, with the HTTP status it comes with and what
 * it tells the client. The one list, like fastify's `FST_ERR_*`: {@link GatewayError} takes a
 * code from here or an upstream's own code passed through ({@link upstreamErrorCode}), so
 * `tsc` refuses a code made up inline. Codes are stable: clients branch on them; a new code
 * is added here, an old one is never renamed. The usual way to make one is a constructor of
 * `error-codes.ts`.
 */
export const errorCodeRegistry = {
  // The client's request.
  invalid_request: '400: a field or the body is wrong; the message names it and says what to change',
  invalid_json: '400: the body is empty or not JSON',
  json_too_deep: '400: JSON nested deeper than the gateway accepts',
  ambiguous_credentials: '400: two different credentials in one request',
  untrusted_host: '400: a link for an outside party would be built on an unknown Host',
  model_price_missing: '400: the model has no price and free models are not allowed',
  prompt_blocked: "400: the upstream's safety system refused the prompt or an input",
  invalid_media_url: '400: a media URL or data URI the gateway cannot fetch or decode',
  media_url_not_allowed: '400: a media URL pointing at a non-public address',
  media_too_large: '400: media past the byte limit',
  media_fetch_timeout: '400: a media URL that did not deliver in time',
  media_fetch_failed: '400: a media URL that answered an error or could not be reached',
  unsupported_media_type: '400 (415 for a body): a type the operation does not accept',
  body_too_large: "413: a body past the route's limit",
  file_too_large: '413: an uploaded file past its limit',
  video_too_large: '413: a video past the download limit',
  uri_too_long: '414: a URL path segment too long',
  // Credentials, quota and permissions.
  unauthorized: '401: no credentials',
  invalid_api_key: '401: unknown credentials',
  token_disabled: '401: the API key is disabled',
  token_expired: '401: the API key has expired',
  insufficient_quota: "402: the key's quota cannot pay for the request",
  access_denied: '403: valid credentials, not allowed here',
  admin_required: "403: a route for admins, called with a user's login token",
  user_disabled: "403: the login token's or API key's user is disabled",
  model_not_allowed: '403: the API key may not use this model',
  rate_limit_exceeded: "429: the key's rate limit; Retry-After says when",
  budget_exceeded: "429: the request's estimate does not fit what is left of the key's or its user's hard budget for the period; Retry-After says when it resets",
  too_many_auth_failures: '429: too many failed authentications from the address or with the key prefix; Retry-After says when',
  too_many_concurrent_requests: '429: the key or its group has its most requests in flight (max_concurrent)',
  // Console sign-in with an OpenID provider.
  sign_in_callback_invalid: "400: the sign-in callback lacks its code or state, the browser's sign-in cookie is missing, forged, of another sign-in or over 10 minutes old, or the provider refused the code",
  sign_in_refused: '403: the identity provider refused the sign-in (the person declined or may not sign in)',
  identity_provider_failed: '502: the identity provider could not be reached, or answered what the sign-in cannot accept',
  // What the client addressed.
  not_found: '404: no such route or object',
  method_not_allowed: '405: the path exists but not with this method; the Allow header lists its methods',
  model_not_found: '404: no channel serves the model for this key',
  model_not_on_route: '404: the model is served for this key, but not on this route; the message names the routes it is served on',
  operation_unsupported: "404: the task's channel does not offer the operation",
  token_not_found: '404: no such API key',
  session_not_found: '404: no such login session',
  user_not_found: '404: no such user',
  channel_not_found: '404: no such channel, in the config file or the store',
  task_not_found: '404: no such task for this key',
  task_vanished: '404: the upstream no longer knows the task',
  video_not_found: '404: the upstream no longer has the video',
  asset_not_found: '404: no such asset in the library',
  asset_group_not_found: '404: no such asset group in the library',
  previous_response_not_found: "404: previous_response_id names no response the gateway keeps for the key's user",
  stored_item_not_found: "404: an item_reference names no output item the gateway keeps for the key's user",
  video_not_ready: '409: the task has no video to download',
  channel_exists: '409: a channel of that name exists already, in the config file or the store',
  channel_read_only: '409: the channel comes from the config file, its source of truth: only enabling or disabling it is done through the API',
  channel_removed: '410: the channel that holds the task or session is no longer configured',
  client_closed_request: '499: the client went away (logged, never sent)',
  // The gateway and its channels.
  internal_error: "500: the gateway's own bug; the cause is logged",
  assets_unavailable: '501: the channel has no asset API configured',
  operation_not_configured: "501: the channel's config leaves the operation out",
  service_unavailable: '503: the store is not answering',
  server_shutting_down: '503: the gateway is stopping',
  server_overloaded: '503: the process has its most model requests in flight (server.max_in_flight); Retry-After says when to try again',
  affinity_channel_unavailable: '503: the channel holding the conversation is cooling down',
  no_available_channel: "503: every channel for the model is cooling down",
  // What an upstream did.
  upstream_invalid_request: '4xx or 502: the upstream refused the request itself, without a code of its own',
  upstream_auth_failed: "502: the upstream refused the channel's credentials",
  upstream_rate_limited: '429: the upstream is rate limiting',
  upstream_error: '502: the upstream failed (5xx), or no channel answered',
  upstream_timeout: '504: the upstream did not answer in time',
  upstream_unreachable: '502: the upstream could not be reached',
  upstream_connection_lost: '502: the upstream connection broke mid-answer',
  upstream_protocol_error: '502: the upstream sent malformed HTTP',
  upstream_url_refused: "502: the upstream named a URL the gateway does not fetch",
  upstream_invalid_response: '502: an answer that is not what the operation expects',
  upstream_stream_truncated: '502: a stream that ended before its end marker',
  upstream_event_too_large: '502: a stream event past streaming.max_event_bytes',
  upstream_response_too_large: "502: a non-stream upstream answer past the channel's max_response_mb",
  empty_response: '502: an answer without any output',
  content_filtered: "200, never sent as an error: on an attempt's record, the upstream stopped for its content filter before any content, and the next fallback model was tried (fallbacks_on)",
  image_conversion_failed: '502: an image made upstream that the gateway could not download',
  // The images routes' own codes (spec part 2's errors table; `error-dialects.ts`).
  invalid_authentication: '401 on the images routes',
  request_timeout: '504 on the images routes',
  bad_response: '503 on the images routes: any other upstream or gateway failure',
} as const;

/** A code of the {@link errorCodeRegistry}. */
export type GatewayErrorCode = keyof typeof errorCodeRegistry;

declare const passedThrough: unique symbol;

/** An upstream's own error code, passed through to the client as the upstream wrote it. */
export type UpstreamErrorCode = string & { readonly [passedThrough]: true };

/**
 * Marks an upstream's own code (`InvalidParameter`, `INVALID_ARGUMENT`) to be passed through
 * as the error's code: the one way a code outside the registry reaches a client. Spec part 2
 * passes upstream video refusals through this way; `upstreamRefusal` is its usual caller.
 */
export const upstreamErrorCode = (code: string): UpstreamErrorCode => code as UpstreamErrorCode;
