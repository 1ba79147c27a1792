import t from 'tap';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';
import { startBanner } from '../../../server/start-banner.js';

const config = (fields: Record<string, unknown>) => gatewayConfigSchema.parse({ groups: { default: {} }, ...fields });

t.test('the banner says where to send requests, where the data is, what is served and how to sign in', async (t) => {
  const banner = startBanner(
    config({
      storage: { driver: 'sqlite', data_dir: '/srv/gateway' },
      providers: [
        { name: 'gx-main', plugin: 'gx', base_url: 'https://gx.example', api_key: 'k', models: ['gx-2.5-pro'] },
        { name: 'gp-main', plugin: 'gp', base_url: 'https://gp.example', api_key: 'k', models: ['gp-5.4'] },
      ],
    }),
    { address: 'http://127.0.0.1:8080', generatedTokenFile: '/srv/gateway/admin-login-token' },
  );
  t.match(banner, /^Model Gateway listening on http:\/\/127\.0\.0\.1:8080\n/);
  t.match(banner, /storage {3}sqlite, \/srv\/gateway\/gateway\.sqlite\n/);
  t.match(banner, /channels {2}2 \(gx-main, gp-main\); families gx, gp\n/);
  t.match(banner, /sign in {3}the first admin's login token was written to \/srv\/gateway\/admin-login-token \(mode 0600\)/);
  t.match(banner, /curl http:\/\/127\.0\.0\.1:8080\/healthz/);
});

t.test('the banner points an empty config at the channels to add, and never shows a storage password', async (t) => {
  const banner = startBanner(
    config({ storage: { driver: 'redis', url: 'redis://gateway:s3cret-pass@10.0.0.5:6379/0' }, security: { encryption_key: 'a'.repeat(64) } }),
    { address: 'http://0.0.0.0:8080' },
  );
  t.match(banner, /channels {2}none: add a channel under providers:/);
  t.match(banner, /storage {3}redis, redis:\/\/gateway:\*\*\*@10\.0\.0\.5:6379\/0/);
  t.notMatch(banner, /s3cret-pass/);
  t.match(banner, /sign in {3}with the login token of a user in the store/);
});

t.test('on postgres the banner names the database without its password, and the schema', async (t) => {
  const banner = startBanner(
    config({ storage: { driver: 'postgres', url: 'postgres://gateway:s3cret-pass@10.0.0.5:5432/billing' }, security: { encryption_key: 'a'.repeat(64) } }),
    { address: 'http://0.0.0.0:8080' },
  );
  t.match(banner, /storage {3}postgres, postgres:\/\/gateway:\*\*\*@10\.0\.0\.5:5432\/billing, schema model_gateway\n/);
  t.notMatch(banner, /s3cret-pass/);
});
