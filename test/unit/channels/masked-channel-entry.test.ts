import t from 'tap';
import { maskedChannelEntry } from '../../../core/channels/masked-channel-entry.js';
import { providerEntrySchema } from '../../../core/config/config-schema.js';

const entry = (fields: Record<string, unknown>) => providerEntrySchema.parse({ name: 'c', plugin: 'gx', base_url: 'https://upstream.example', models: ['m'], ...fields });

t.test('a channel is shown with its key, each of its keys and its credential-named options masked, and nothing else changed', async (t) => {
  const masked = maskedChannelEntry(
    entry({
      api_keys: ['first-key-0123456789', 'short'],
      options: { region: 'eu-west-1', secret_access_key: 'aws-secret-abcdefgh1234', auth: { token: 'nested-token-9876543210', scopes: ['a', 'b'] }, headers: [{ password: 'p4ssw0rd-long-enough' }] },
    }),
  );
  t.same(masked.api_keys, ['firs**********6789', '*****']);
  t.same(masked.options, {
    region: 'eu-west-1',
    secret_access_key: 'aws-**********1234',
    auth: { token: 'nest**********3210', scopes: ['a', 'b'] },
    headers: [{ password: 'p4ss**********ough' }],
  });
  t.match(masked, { name: 'c', plugin: 'gx', base_url: 'https://upstream.example', models: ['m'], groups: ['default'], priority: 0, weight: 1 });
  t.equal(maskedChannelEntry(entry({ api_key: 'single-key-abcdef123' })).api_key, 'sing**********f123');
  t.notOk('api_key' in maskedChannelEntry(entry({})), 'a channel without a key shows none');
});
