import { z } from 'zod';
import type { OperationCall } from '../../../core/index.js';

// The calls of Google-API-style upstreams (reference upstreams.md §1.1, read with the spec's
// neutral names): paths under an API version, the channel's key in `x-gx-api-key`.

/** A channel's `options` on a Google-API-style upstream. */
export const googleApiOptionsSchema = z.strictObject({
  /** The API version segment of the upstream paths (`{base_url}/{api_version}/models/...`). */
  api_version: z.string().regex(/^v[0-9a-z]+$/, { error: 'expected a version such as v1beta' }).default('v1beta'),
});

/** The options {@link googleApiOptionsSchema} reads. */
export type GoogleApiOptions = z.output<typeof googleApiOptionsSchema>;

/** The header the channel's key travels in. */
export const googleApiKeyHeader = (call: Pick<OperationCall<unknown, unknown>, 'channel'>): Record<string, string> => ({ 'x-gx-api-key': call.channel.apiKey });

/** `{base_url}/{api_version}/{path}`: the address of an upstream path such as `models/{model}:generateContent`. */
export const googleApiUrl = (call: Pick<OperationCall<unknown, GoogleApiOptions>, 'channel' | 'options'>, path: string): string =>
  `${call.channel.baseUrl}/${call.options.api_version}/${path}`;
