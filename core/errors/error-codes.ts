import { quoted } from './client-text.js';
import type { GatewayErrorCode } from './error-code-registry.js';
import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/** 400: the client sent something the gateway cannot accept; the message says what to change. */
export const invalidRequest = (message: string, options?: GatewayErrorOptions) =>
  new GatewayError(400, 'invalid_request', message, options);

/** 401: missing, unknown, disabled or expired credentials. */
export const unauthorized = (message: string, code: GatewayErrorCode = 'invalid_api_key') => new GatewayError(401, code, message);

/**
 * 400: the request carries two different credentials (a Bearer token and another key in a
 * header or `?key=` its surface reads, or two `Authorization` lines). Which one was meant cannot be
 * known, so neither is used; the same key sent twice is not ambiguous.
 */
export const ambiguousCredentials = (where: string) =>
  new GatewayError(400, 'ambiguous_credentials', `the request carries two different credentials (${where}); send one credential, in one place`);

/**
 * 400: a link the gateway must give an outside party (a validation page's callback) would be
 * built on a Host header the gateway is not known by (`server.public_url`, `server.allowed_hosts`),
 * which a client can forge.
 */
export const untrustedHost = (host: string) =>
  new GatewayError(
    400,
    'untrusted_host',
    `this needs the gateway's public address, and the Host ${quoted(host)} is not one it is known by; call the gateway at its own address, or ask the operator to set server.public_url`,
  );

/** 402: the token's quota cannot pay for the request. */
export const insufficientQuota = (message: string) => new GatewayError(402, 'insufficient_quota', message);

/** 403: the credentials are valid but not allowed here (client IP, model). */
export const forbidden = (message: string, code: GatewayErrorCode = 'access_denied') => new GatewayError(403, code, message);

/**
 * 403: the credentials are right but their user is disabled. Not a guess (the credential
 * matched), so it is not counted as a failed authentication.
 */
export const userDisabled = (credential: 'login token' | 'API key') =>
  new GatewayError(403, 'user_disabled', `the user this ${credential} belongs to is disabled; an admin can enable them again (PUT /api/user/ with status 1)`);

/** 409: the request clashes with what is there (a channel of that name, a channel the config file owns). */
export const conflict = (message: string, code: GatewayErrorCode, param?: string) => new GatewayError(409, code, message, { param });

/**
 * 400: the OpenID sign-in callback cannot be trusted (`why` says how: no code, no state, no
 * sign-in of this browser, another sign-in's state, a flow over 10 minutes old, a code the
 * provider refused). Starting over fixes it.
 */
export const signInCallbackInvalid = (why: string) =>
  new GatewayError(400, 'sign_in_callback_invalid', `${why}; start the sign-in again from the console`);

/** 403: the identity provider answered the sign-in with an error (the person declined, or may not sign in); `why` is its own words. */
export const signInRefused = (why: string) => new GatewayError(403, 'sign_in_refused', `the identity provider refused the sign-in: ${why}`);

/** 502: the identity provider could not be reached or answered what the sign-in cannot accept; `why` says which. */
export const identityProviderFailed = (why: string, cause?: unknown) => new GatewayError(502, 'identity_provider_failed', why, { cause });

/** 403 `user_disabled` at a single sign-on: the person signed in at the identity provider, but their user here is disabled. */
export const userDisabledAtSignIn = (username: string) =>
  new GatewayError(403, 'user_disabled', `the gateway's user "${username}" is disabled, so it may not sign in; an admin can enable it again on the Users page`);

/** 404: the addressed thing does not exist for this caller. */
export const notFound = (message: string, code: GatewayErrorCode = 'not_found') => new GatewayError(404, code, message);

/**
 * 404: `previous_response_id` names no response the gateway keeps for this caller: unknown,
 * expired (`keptFor` says how long responses are kept), stored with `store: false`, or made
 * for another user, which is not told apart so that ids of others cannot be probed.
 */
export const previousResponseNotFound = (id: string, keptFor: string) =>
  new GatewayError(
    404,
    'previous_response_not_found',
    `previous_response_id: no response ${quoted(id)} is kept for this API key's user; it may be unknown, older than ${keptFor}, created with store: false, or another user's. Send the whole conversation in input instead`,
    { param: 'previous_response_id' },
  );

/** 404: an `item_reference` names no output item the gateway keeps for this caller (the same cases as {@link previousResponseNotFound}). */
export const storedItemNotFound = (id: string, field: string, keptFor: string) =>
  new GatewayError(
    404,
    'stored_item_not_found',
    `${field}: no item ${quoted(id)} is kept for this API key's user; it may be unknown, older than ${keptFor}, from a response created with store: false, or another user's. Send the item itself instead of a reference`,
    { param: field },
  );

/** 429: slow down; `retryAfterSeconds` goes out as `Retry-After`. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new GatewayError(429, 'rate_limit_exceeded', message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/**
 * 429: the request's estimate does not fit what is left of a hard budget's period; `Retry-After`
 * says when the period resets.
 */
export const budgetExceeded = (message: string, retryAfterSeconds: number) =>
  new GatewayError(429, 'budget_exceeded', message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/**
 * 429: the API key or its group has as many requests in flight as it may; no time is known
 * when one ends, so `Retry-After` says one second.
 */
export const tooManyConcurrentRequests = (message: string) =>
  new GatewayError(429, 'too_many_concurrent_requests', message, { headers: { 'retry-after': '1' } });

/**
 * 501: the channel that serves the model could run the operation, but its config leaves it
 * out (see `Provider.unavailable`); the message names the channel and the option to set.
 */
export const operationNotConfigured = (channel: string, model: string, operation: string, missing: string) =>
  new GatewayError(
    501,
    'operation_not_configured',
    `channel ${quoted(channel)} serves model ${quoted(model)} but is not set up for ${operation}: its config lacks ${missing}; the operator must add it to the channel in the gateway's config`,
  );

/** 503: a dependency the gateway needs (storage) is not answering. */
export const unavailable = (message: string, cause?: unknown) =>
  new GatewayError(503, 'service_unavailable', message, { cause });

/** 503: the gateway is stopping; the client should retry, on another instance if it has one. */
export const shuttingDown = () =>
  new GatewayError(503, 'server_shutting_down', 'the gateway is shutting down and ended this stream; retry the request', { retryable: true });

/**
 * 503: the process already carries `limit` model requests (`server.max_in_flight`). Refused
 * at arrival, so the streams it is sending keep their pace; the client retries after
 * `Retry-After` seconds, here or on another instance.
 */
export const serverOverloaded = (limit: number, retryAfterSeconds: number) =>
  new GatewayError(
    503,
    'server_overloaded',
    `the gateway is serving its limit of ${limit} model requests at once (server.max_in_flight); retry in ${retryAfterSeconds} s, or send the request to another instance`,
    { headers: { 'retry-after': String(retryAfterSeconds) }, retryable: true },
  );

/** 400: JSON nested deeper than the gateway accepts (`server.max_json_depth` for a body); `param` names the field when it is JSON inside a string. */
export const jsonTooDeep = (limit: number, param?: string) =>
  new GatewayError(
    400,
    'json_too_deep',
    `${param === undefined ? 'the JSON body' : `${param}: the JSON`} nests objects and arrays more than ${limit} levels deep, the most this gateway accepts; flatten it`,
    { param },
  );

/**
 * 500: the gateway's own bug, such as provider code throwing something other than a
 * GatewayError. The message is generic (the cause may hold internals); the cause, with its
 * stack, is for the log only. Never retryable: another channel runs the same code.
 */
export const internalError = (cause: unknown) =>
  new GatewayError(500, 'internal_error', 'the gateway failed to handle the request; it has been logged', { cause });

// What a provider reports of an upstream: one place for the codes every provider shares.

/**
 * 502 `upstream_invalid_response` in words of the provider's own, for a malformed answer the
 * wording of `invalidUpstreamAnswer` does not fit (a redirect without a Location). The
 * channel's fault, so retryable on another channel by default; `retryable: false` where a
 * retry could repeat a side effect (a task the upstream may have started).
 */
export const malformedUpstreamAnswer = (message: string, options: Pick<GatewayErrorOptions, 'cause' | 'retryable'> = {}) =>
  new GatewayError(502, 'upstream_invalid_response', message, { cause: options.cause, retryable: options.retryable ?? true });

/**
 * 502 `upstream_invalid_response` for a provider that answered `operation` with a kind of
 * result the operation never answers (a plugin in plain JavaScript, which no type holds to
 * `OperationResults`). Tried on another channel, which may run another plugin, unless the call
 * may have started a task (`retryable: false`); never counted against the channel's circuit,
 * since what a buggy plugin answers may follow the request.
 */
export const wrongResultKind = (operation: string, answered: string, expected: readonly string[], retryable: boolean) =>
  new GatewayError(502, 'upstream_invalid_response', `the provider answered ${operation} with ${answered}, where ${operation} answers ${expected.join(' or ')}`, { retryable, fault: 'request' });

/** 502 `empty_response`: the upstream answered, but without any output (`message` says what was missing). Nothing is billed; another channel may do better. */
export const emptyUpstreamAnswer = (message: string) => new GatewayError(502, 'empty_response', message, { retryable: true });

/**
 * 502 `empty_response` for an answer in which the model itself made no output of the kind
 * asked for (an image model that answered in words only). Tried on another channel like
 * {@link emptyUpstreamAnswer}, but not the channel's failure: what a model makes follows the
 * prompt, so a client could otherwise open the circuit with prompts of its choosing.
 */
export const noOutputForPrompt = (message: string) => new GatewayError(502, 'empty_response', message, { retryable: true, fault: 'request' });

/** 502 `upstream_stream_truncated`: the stream ended before its end marker, which the client must not mistake for a complete answer. */
export const upstreamStreamTruncated = () =>
  new GatewayError(502, 'upstream_stream_truncated', 'the upstream stream ended before the answer was finished', { retryable: true });

/**
 * 502 `upstream_response_too_large`: a non-stream answer larger than the channel's
 * `max_response_mb`, refused before the gateway held more of it. The upstream's fault, so
 * retryable on another channel (`readUpstreamAnswer` makes it final where a task may have started).
 */
export const upstreamResponseTooLarge = (maxBytes: number) =>
  new GatewayError(502, 'upstream_response_too_large', `the upstream answered more than ${formatMebibytes(maxBytes)}, the most this channel accepts (max_response_mb)`, {
    retryable: true,
  });

const formatMebibytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`;

/** 400 `prompt_blocked`: the upstream's safety system refused the prompt or an input; not retried, another channel would refuse it too. */
export const promptBlocked = (message: string) => new GatewayError(400, 'prompt_blocked', message);

/**
 * `content_filtered`: the upstream stopped for its content filter before any content, and a
 * fallback model is tried instead (`fallbacks_on: [content_filter]`). Only ever on an attempt's
 * record, with the 200 the upstream answered: the client gets a fallback's answer, or the refusal.
 */
export const contentFiltered = () => new GatewayError(200, 'content_filtered', 'the upstream stopped for its content filter before any content; the next fallback model was tried');

/** 404 `task_vanished`: the upstream does not know the task (any more); core then marks it failed and refunds it. */
export const taskVanished = (message: string) => new GatewayError(404, 'task_vanished', message);

/** 404 `video_not_found`: the upstream no longer has the video; `param` names the field that pointed at it. */
export const videoNotFound = (message: string, param?: string) => new GatewayError(404, 'video_not_found', message, { param });

/** 409 `video_not_ready`: the task has no video to download (yet, or at all). */
export const videoNotReady = (message: string) => new GatewayError(409, 'video_not_ready', message);

/** 502 `upstream_error`: the upstream failed (`message` says how); retryable on another channel only where `retryable` says so. */
export const upstreamFailed = (message: string, options: Pick<GatewayErrorOptions, 'cause' | 'retryable'> = {}) =>
  new GatewayError(502, 'upstream_error', message, options);

/**
 * 404 `model_not_found`: the upstream does not know the model, or does not offer it to this
 * channel (`detail`, in its own words, says which). On a channel serving a pattern any name
 * the client makes up gets this answer, so it is the client's error for this model on this
 * channel, not the channel's failure: the request is tried on the next channel that serves
 * the model, and the channel's circuit never counts it (neither as a failure, which would let
 * one client's made-up names shut the channel for everyone, nor as a success, which would
 * let them hide a real outage by breaking the run of failures that opens the circuit).
 */
export const upstreamModelUnknown = (detail: string) =>
  new GatewayError(404, 'model_not_found', `the upstream does not know this model or does not offer it to this channel: ${detail}`, { param: 'model', retryable: true, fault: 'request' });

/**
 * 403 `upstream_invalid_request`: the upstream refused this channel access to something the
 * request names (a file, a tuned model), in its own words (`detail`). Tried on the next
 * channel, whose key may own it; never the channel's failure, as the client chose the name.
 */
export const upstreamDeniedNamedResource = (detail: string) =>
  new GatewayError(403, 'upstream_invalid_request', `the upstream refused access to something the request names: ${detail}`, { retryable: true, fault: 'request' });

/** 502 `upstream_auth_failed`: the upstream refused the channel's credentials (or plan); the channel's fault, so retryable elsewhere. `upstreamMessage`: the upstream's own words, for the operator only. */
export const upstreamAuthFailed = (message: string, upstreamMessage?: string) =>
  new GatewayError(502, 'upstream_auth_failed', message, { retryable: true, upstreamMessage });

/** 501 `assets_unavailable`: the channel serving an asset request has no asset API configured. */
export const assetsUnavailable = (channel: string, option: string) =>
  new GatewayError(501, 'assets_unavailable', `channel ${quoted(channel)} has no asset API configured (${option})`);

/**
 * 502 `image_conversion_failed`: the upstream made the image, but the gateway could not
 * download it to hand it back inline; `reason` says why.
 */
export const imageConversionFailed = (reason: string, cause?: unknown) =>
  new GatewayError(502, 'image_conversion_failed', `the upstream made the image, but the gateway could not download it to return it as b64_json: ${reason}; ask for response_format "url" to get its link instead`, {
    cause,
  });
