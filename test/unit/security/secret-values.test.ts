import { Writable } from 'node:stream';
import t from 'tap';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';
import { createLogger } from '../../../core/logging/create-logger.js';
import { operatorSecrets, SecretValues, secretValuesOf } from '../../../core/security/secret-values.js';

const key = 'plainChannelKey/4e7a+9c';

t.test('a secret is scrubbed by value in every spelling it leaks in, whatever its shape', async (t) => {
  const secrets = new SecretValues();
  secrets.add([key]);
  const spellings = {
    'as it is': key,
    'after Bearer': `Bearer ${key}`,
    'percent-encoded': `?key=${encodeURIComponent(key)}`,
    'percent-encoded in lower case': `x=${encodeURIComponent(key).toLowerCase()}`,
    'in a form': new URLSearchParams({ key }).toString(),
    'escaped in JSON with \\/': JSON.stringify({ key }).replaceAll('/', '\\/'),
  };
  for (const [how, text] of Object.entries(spellings)) {
    const scrubbed = secrets.scrub(`upstream said: ${text} (end)`);
    t.notOk(scrubbed.includes('4e7a'), `${how}: ${scrubbed}`);
    t.match(scrubbed, /\[redacted\].*\(end\)$/, `${how}: the rest of the text stays`);
    t.ok(secrets.contains(text), `${how} is found`);
  }
  t.equal(secrets.scrub('nothing secret here'), 'nothing secret here', 'other text is untouched');
});

t.test('values too short to be credentials are not scrubbed, so a key like "k1" does not mangle every message', async (t) => {
  const secrets = new SecretValues();
  secrets.add(['k1', 'short']);
  t.equal(secrets.scrub('rank1 is short'), 'rank1 is short');
  t.equal(secrets.contains('k1'), false);
});

t.test("a config's secrets are every channel key, credential-named options, the encryption key, login tokens and the Redis password", async (t) => {
  const config = gatewayConfigSchema.parse({
    storage: { driver: 'redis', url: 'redis://:redis-password-9f@127.0.0.1:6379' },
    security: { encryption_key: 'encryption-key-0123456789abcdef0123' },
    users: [{ id: 1, username: 'admin', login_token: 'mgu_bootstraptoken0123' }],
    providers: [
      { name: 'one', plugin: 'gx', base_url: 'http://127.0.0.1:1', api_key: 'channel-one-key', models: ['m'] },
      { name: 'two', plugin: 'gx', base_url: 'http://127.0.0.1:1', api_keys: ['rotated-key-a', 'rotated-key-b'], models: ['m'] },
      {
        name: 'three',
        plugin: 'dsx',
        base_url: 'http://127.0.0.1:1',
        api_key: 'channel-three-key',
        models: ['m'],
        options: { path_prefix: '/api/v3/somewhere', assets: { access_key_id: 'AKLTaccessid', secret_access_key: 'volc-secret-access', region: 'cn-beijing-1' } },
      },
    ],
  });
  const values = secretValuesOf(config);
  for (const secret of ['channel-one-key', 'rotated-key-a', 'rotated-key-b', 'channel-three-key', 'AKLTaccessid', 'volc-secret-access', 'encryption-key-0123456789abcdef0123', 'mgu_bootstraptoken0123', 'redis-password-9f']) {
    t.ok(values.includes(secret), secret);
  }
  t.notOk(values.includes('/api/v3/somewhere'), 'an option not named as a credential is not a secret');
  t.notOk(values.includes('cn-beijing-1'), 'nor is a plain field next to credentials');
});

t.test("the OpenID client secret is among a config's secrets", async (t) => {
  const config = gatewayConfigSchema.parse({
    auth: { oidc: { issuer: 'https://accounts.example.com', client_id: 'gateway', client_secret: 'oidc-client-secret-7c', redirect_url: 'https://gateway.example.com/api/sign-in/oidc/callback' } },
  });
  t.ok(secretValuesOf(config).includes('oidc-client-secret-7c'));
});

t.test("the password of a postgres storage URL is among a config's secrets", async (t) => {
  const config = gatewayConfigSchema.parse({
    storage: { driver: 'postgres', url: 'postgres://gateway:pg-password-3b%2F1@10.0.0.5:5432/billing' },
    security: { encryption_key: 'encryption-key-0123456789abcdef0123' },
    groups: { default: {} },
  });
  const values = secretValuesOf(config);
  t.ok(values.includes('pg-password-3b/1'), 'as written, decoded');
  t.ok(values.includes('pg-password-3b%2F1'), 'and as it appears in the URL');
});

t.test('the logger scrubs registered secrets from the whole line, inside a logged error object too', async (t) => {
  operatorSecrets.add([key]);
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level: 'trace', destination });
  logger.error({ err: new Error(`upstream echoed ${key}`), upstream: { body: `{"api_key":"${key}"}` } }, 'request failed');
  const line = lines.join('');
  t.notOk(line.includes('4e7a'), 'the key is in neither the error, its stack, nor a nested field');
  t.match(JSON.parse(line), { err: { message: 'upstream echoed [redacted]' } }, 'the line stays valid JSON');
});
