import { readFileSync } from 'node:fs';
import t from 'tap';
import { shippedPriceCatalog } from '../../../core/billing/price-catalog.js';
import { unpricedModels } from '../../../core/billing/unpriced-models.js';
import { unusedStorageKeys } from '../../../core/config/config-schema.js';
import { loadConfigFile, parseConfigText } from '../../../core/config/load-config.js';
import { buildTestApp } from '../../helpers/build-test-app.js';
import { storageFor, testEncryptionKey } from '../../helpers/test-config.js';

const shippedFile = 'config/gateway.yaml';

/** The key variables the commented channels name; an operator sets the ones of the families they enable. */
const keys = {
  GX_API_KEY: 'gx-key-for-test',
  GP_API_KEY: 'gp-key-for-test',
  ARK_API_KEY: 'ark-key-for-test',
  DASHSCOPE_API_KEY: 'dashscope-key-for-test',
};

/**
 * The shipped config with every commented channel enabled the way the file says: "# " removed
 * in front of each line from "- name:" down to the block's last indented line. Comments
 * inside a block (`#   # assets: …`) stay comments.
 */
function withEveryChannelEnabled(text: string): string {
  let inBlock = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^ {2}# - name: /.test(line)) inBlock = true;
      else if (!/^ {2}# {3}/.test(line)) inBlock = false;
      return inBlock ? line.replace(/^( {2})# /, '$1') : line;
    })
    .join('\n');
}

t.test('the shipped config/gateway.yaml loads through the real loader as it is, with no channel', async (t) => {
  const { config } = loadConfigFile(shippedFile, {});
  t.same(config.providers, []);
  t.same(config.pricing, {});
  t.equal(config.billing.price_catalog, true, 'the price catalog prices the spec models');
  t.same(unpricedModels(config), []);
});

t.test('uncommenting every channel block and setting the keys gives a config the gateway starts with', async (t) => {
  const text = withEveryChannelEnabled(readFileSync(shippedFile, 'utf8'));
  const parsed = parseConfigText(text, shippedFile, keys);
  t.same(
    parsed.providers.map((provider) => `${provider.name}:${provider.plugin}`),
    ['gx-main:gx', 'gp-main:gp', 'gi-main:gi', 'audio-main:audio', 'dsr-main:dsr', 'qi-main:qi', 'sr-main:sr', 'vo-main:vo', 'wn-main:wn', 'hx-main:hx', 'dsx-main:dsx'],
    'one channel per family',
  );
  const served = new Set(parsed.providers.flatMap((provider) => [...provider.models, ...Object.keys(provider.model_map)]));
  const catalogModels = Object.keys(shippedPriceCatalog().entries);
  t.same(catalogModels.filter((model) => !served.has(model)), [], 'every model the catalog prices has a channel');
  t.same([...served].filter((model) => !catalogModels.includes(model)), [], 'every model a channel lists has a catalog price');
  t.same(unpricedModels(parsed), [], 'so config check has nothing to warn about');
  for (const provider of parsed.providers) {
    for (const model of Object.keys(provider.model_map)) t.ok(provider.models.includes(model), `${provider.name} lists ${model}, which it maps`);
  }

  // Building the app loads every plugin and parses each channel's options with the plugin's
  // own strict schema, so a misspelt option in the file fails here.
  const config = { ...parsed, storage: storageFor(t, 'memory'), security: { ...parsed.security, encryption_key: testEncryptionKey } };
  const gateway = await buildTestApp(t, 'memory', {}, { config });
  const ready = await gateway.app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 200, 'the gateway serves');
});

t.test('an enabled channel whose key variable is unset is refused with the variable named', async (t) => {
  const text = withEveryChannelEnabled(readFileSync(shippedFile, 'utf8'));
  const { GX_API_KEY: _unset, ...others } = keys;
  t.throws(() => parseConfigText(text, shippedFile, others), /providers\[0\]\.api_key: environment variable GX_API_KEY is not set/);
});

t.test("the shipped config's commented auth.oidc block loads once uncommented", async (t) => {
  const text = readFileSync(shippedFile, 'utf8').replace(/^# (auth:|  oidc:|    \w+: .*)$/gm, '$1');
  const config = parseConfigText(text, shippedFile, { GATEWAY_OIDC_CLIENT_SECRET: 'a-client-secret-for-test' });
  t.match(config.auth.oidc, { issuer: 'https://accounts.example.com', client_secret: 'a-client-secret-for-test', admin_claim: 'groups=gateway-admins', session_hours: 12 });
});

t.test("switching storage.driver in the shipped config is that one edit (and a url for redis or postgres): path stays, named as ignored", async (t) => {
  const shipped = readFileSync(shippedFile, 'utf8');
  const driverLine = /^ {2}driver: sqlite .*$/m;
  t.match(shipped, driverLine, 'the shipped config names the driver on a line of its own');
  // redis and postgres need a key every instance shares; the shipped config reads it from this variable.
  const environment = { GATEWAY_ENCRYPTION_KEY: testEncryptionKey };
  const switched = {
    memory: '  driver: memory',
    redis: '  driver: redis\n  url: redis://127.0.0.1:6379',
    postgres: '  driver: postgres\n  url: postgres://127.0.0.1:5432/gateway',
  };
  for (const [driver, lines] of Object.entries(switched)) {
    const config = parseConfigText(shipped.replace(driverLine, lines), shippedFile, environment);
    t.equal(config.storage.driver, driver, `${driver}: the config loads`);
    t.same(unusedStorageKeys(config.storage), [{ path: 'storage.path', message: `ignored with driver ${driver}: only sqlite uses it` }], `${driver}: storage.path is kept and named as ignored`);
  }
});
