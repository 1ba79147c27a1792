import t from 'tap';
import { z } from 'zod';

import { pathPrefixOption } from '../../../core/kit/index.js';
t.test('path_prefix defaults to the provider’s prefix and refuses a trailing slash with an example', async (t) => {
  const schema = z.strictObject({ path_prefix: pathPrefixOption('/api/v3') });
  t.strictSame(schema.parse({}), { path_prefix: '/api/v3' });
  t.strictSame(schema.parse({ path_prefix: '' }), { path_prefix: '' });
  t.strictSame(schema.parse({ path_prefix: '/v1/beta' }), { path_prefix: '/v1/beta' });
  const refused = schema.safeParse({ path_prefix: '/v1/' });
  t.equal(refused.success, false);
  t.match(refused.error?.issues[0]?.message, 'expected a path such as /api/v3, starting with a slash and without a trailing one');
});
