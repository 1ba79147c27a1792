import type { SchemaNode } from './openai-openapi-description.js';

/**
 * One place where the gateway's answer knowingly differs from OpenAI's description, and why.
 * A check passes an allowance by name for the answers it covers; the description is widened
 * at `at`, and only there, to also accept `accepts`. An allowance a check passes but none of
 * its bodies needs fails the check, so none outlives the difference it was made for.
 * docs/routes.md ("Answers and OpenAI's OpenAPI description") lists every one.
 */
export interface SchemaAllowance {
  /** A kebab-case name, shown in failures and in the docs. */
  name: string;
  /** Why the gateway answers this way: the product rule or the recorded real answer behind it. */
  reason: string;
  /**
   * The JSON pointer of the schema widened, `/components/schemas/<Name>/…`, into the
   * description as the checks read it (`toJsonSchema`: a `nullable` schema is
   * `anyOf: [{type: 'null'}, the schema]`, so what it held is under `anyOf/1`).
   */
  at: string;
  /** What is accepted there besides the description's own schema (JSON Schema 2020-12). */
  accepts: SchemaNode;
}

/**
 * Every allowance there is. Add one here, with the rule or recording it comes from, and list it
 * in docs/routes.md; never widen a schema for a difference that neither the product's own rules
 * nor a recorded real answer the gateway passes through explains: fix the answer instead.
 */
export const openAiSchemaAllowances = {
  // The product's own rules win (docs/images.md, docs/video-tasks.md; the product spec behind them).

  /**
   * The gx image answer keeps the field an image URL would take and leaves it empty, beside
   * `b64_json` (docs/images.md: the product's own answer shape, `url: ""`, which clients
   * written against it read); `Image.url` is a `format: uri`, which `""` is not.
   */
  gxImageEmptyUrl: {
    name: 'gx-image-empty-url',
    reason: 'gx image answers carry `url: ""` beside `b64_json` (docs/images.md)',
    at: '/components/schemas/Image/properties/url',
    accepts: { const: '' },
  },
  /**
   * `VideoSize` lists the four sizes Sora makes. The other families make others (docs/video-tasks.md:
   * vo's 1080p, wn's `W*H` sizes, Seedance's tiers and ratios), and the video object says the
   * pixel size when the family works in pixels, else the resolution tier (`720p`) it was
   * asked for, since the upstream picks the pixels from the tier and an aspect.
   */
  videoSizeOfOtherFamilies: {
    name: 'video-size-of-other-families',
    reason: 'video families other than sr make sizes Sora’s four do not include; `size` is `WIDTHxHEIGHT`, or the resolution tier where the family has no pixel size',
    at: '/components/schemas/VideoResource/properties/size',
    accepts: { type: 'string', pattern: '^(?:[1-9][0-9]*x[1-9][0-9]*|[1-9][0-9]*p)$' },
  },

  /**
   * With `encoding_format: "base64"` (which the description's own `CreateEmbeddingRequest`
   * offers, and the official `openai` SDK asks for by default) each vector is the base64 of its
   * little-endian float32 values, a string (docs/routes.md, "POST /v1/embeddings"; the SDK
   * decodes it so); `Embedding.embedding` only says a list of floats.
   */
  embeddingBase64String: {
    name: 'embedding-base64-string',
    reason: 'with `encoding_format: "base64"` each `embedding` is the base64 of its float32 values, a string, as the request schema offers and the openai SDK decodes (docs/routes.md)',
    at: '/components/schemas/Embedding/properties/embedding',
    accepts: { type: 'string', pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' },
  },
  /**
   * Spec part 2 has the image routes fail with `{error: {message, type, code}}`, without the
   * `param` that `Error` requires (docs/images.md, "Errors answer").
   */
  imagesErrorWithoutParam: {
    name: 'images-error-without-param',
    reason: 'the image routes’ errors are `{error: {message, type, code}}`, without `param` (docs/images.md)',
    at: '/components/schemas/ErrorResponse/properties/error',
    accepts: {
      type: 'object',
      required: ['message', 'type', 'code'],
      properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: 'string' } },
    },
  },

  // Recorded real answers win where the gateway passes them on (test/fixtures/gp/, from OpenAI's
  // API): the gp family's Responses, JSON and stream, come back as the upstream sent them.

  /** Every recorded Response (openai-responses-nonstream-reasoning.json, both .sse) has `user: null`; the description says a string. */
  responseUserNull: {
    name: 'openai-response-user-null',
    reason: 'recorded Responses carry `user: null` (test/fixtures/gp/openai-responses-*)',
    at: '/components/schemas/ModelResponseProperties/properties/user',
    accepts: { type: 'null' },
  },
  /** The recorded `response.created`, `response.in_progress` and `response.failed` events carry `usage: null` (openai-responses-stream-*.sse). */
  responseUsageNullUntilDone: {
    name: 'openai-response-usage-null-until-done',
    reason: 'recorded Responses events before the end, and a failed one, carry `usage: null` (test/fixtures/gp/openai-responses-stream-*.sse)',
    at: '/components/schemas/Response/allOf/2/properties/usage',
    accepts: { type: 'null' },
  },
  /** The recorded usage's `input_tokens_details` is `{cached_tokens}` alone; 2.3.0 also requires `cache_write_tokens`. */
  responseUsageWithoutCacheWrites: {
    name: 'openai-response-usage-without-cache-writes',
    reason: 'recorded Responses usage has `input_tokens_details: {cached_tokens}` without `cache_write_tokens` (test/fixtures/gp/openai-responses-*)',
    at: '/components/schemas/ResponseUsage/properties/input_tokens_details',
    accepts: { type: 'object', required: ['cached_tokens'], properties: { cached_tokens: { type: 'integer' } } },
  },
  /**
   * The recorded `error` event of a Responses stream nests `{type, code, message, param}` under
   * `error` (openai-responses-stream-error.sse), where the description has them at the top; the
   * gateway's own in-band error on that route follows the recording, so a client reads both alike.
   */
  responseErrorEventNested: {
    name: 'openai-response-error-event-nested',
    reason: 'the recorded Responses `error` event nests its fields under `error` (test/fixtures/gp/openai-responses-stream-error.sse); the gateway’s own in-band error does the same',
    at: '/components/schemas/ResponseErrorEvent',
    accepts: {
      type: 'object',
      required: ['type', 'sequence_number', 'error'],
      properties: {
        type: { const: 'error' },
        sequence_number: { type: 'integer' },
        error: {
          type: 'object',
          required: ['type', 'code', 'message', 'param'],
          properties: { type: { type: 'string' }, code: { type: ['string', 'null'] }, message: { type: 'string' }, param: { type: ['string', 'null'] } },
        },
      },
    },
  },
  /** The recorded `response.failed` says `error.code: "insufficient_quota"`, a code `ResponseErrorCode` does not list (openai-responses-stream-error.sse). */
  responseErrorInsufficientQuota: {
    name: 'openai-response-error-insufficient-quota',
    reason: 'the recorded failed Response has `error.code: "insufficient_quota"`, which `ResponseErrorCode` does not list (test/fixtures/gp/openai-responses-stream-error.sse)',
    at: '/components/schemas/ResponseError/anyOf/0/properties/code',
    accepts: { const: 'insufficient_quota' },
  },
} as const satisfies Record<string, SchemaAllowance>;
