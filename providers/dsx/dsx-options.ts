import { z } from 'zod';

import { pathPrefixOption } from '../../core/kit/index.js';
/** A dsx channel's `options`. */
export const dsxOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` and `/contents/generations/tasks`. Ark's
   * runtime API lives under `/api/v3` on both sites (reference/upstreams.md §3.1), so
   * `base_url` is the bare origin, e.g. `https://ark.cn-beijing.volces.com`.
   */
  path_prefix: pathPrefixOption('/api/v3'),
  /**
   * The asset library API (upstreams.md §3.5): a separate Volcengine / BytePlus OpenAPI host,
   * signed with an access key pair rather than the runtime key. Without it the channel offers
   * no `assets.*` operations, and `asset://` references go upstream as the client typed them.
   */
  assets: z
    .strictObject({
      /** The OpenAPI origin, e.g. `https://ark.cn-beijing.volcengineapi.com` or `https://ark.ap-southeast-1.byteplusapi.com`. */
      base_url: z
        .string({ error: 'expected the asset API origin, e.g. https://ark.cn-beijing.volcengineapi.com' })
        .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), { error: 'expected an http(s) URL' })
        .transform((value) => value.replace(/\/+$/, '')),
      access_key_id: z.string({ error: 'expected the access key id' }).min(1, { error: 'must not be empty' }),
      secret_access_key: z.string({ error: 'expected the secret access key' }).min(1, { error: 'must not be empty' }),
      /** The signing region: `cn-beijing` (Volcengine) or `ap-southeast-1` (BytePlus). */
      region: z.string().min(1).default('cn-beijing'),
      /** The Ark project the assets live in. */
      project_name: z.string().min(1).default('default'),
    })
    .optional(),
});

export type DsxOptions = z.output<typeof dsxOptionsSchema>;
