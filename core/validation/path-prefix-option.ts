import { z } from 'zod';

/**
 * The `path_prefix` channel option: the path between the channel's `base_url` and the
 * upstream's own paths (`/v1` before `/chat/completions`), `defaultPrefix` when the channel
 * names none. One or more `/segment`s without a trailing slash, or empty. Use it in a
 * provider's options schema and build addresses with `prefixedUpstreamUrl`.
 */
export const pathPrefixOption = (defaultPrefix: string) =>
  z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: `expected a path such as ${defaultPrefix}, starting with a slash and without a trailing one` })
    .default(defaultPrefix);

/** A channel's `options` when `path_prefix` is all it takes (see {@link pathPrefixOption}). */
export const pathPrefixOptions = (defaultPrefix: string) => z.strictObject({ path_prefix: pathPrefixOption(defaultPrefix) });

/** The options {@link pathPrefixOptions} reads. */
export interface PathPrefixOptions {
  path_prefix: string;
}
