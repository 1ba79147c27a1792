import t from 'tap';
import { InjectionTokens } from '../../core/di/injection-tokens.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioPricing, startGx } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

// An instance started with another security.encryption_key than the store was written with
// is refused at start with a message, instead of answering every client with 401 because no
// stored API key opens (reference/landscape.md §3.21).

const otherKey = 'another-encryption-key-fedcba9876543210';

for (const driver of ['sqlite', 'redis', 'postgres'] as const) {
  t.test(`on ${driver}, a start with another encryption key than the store's is refused with a message; the right key still serves`, async (t) => {
    const fake = await startGx(t);
    const storage = storageFor(t, driver);
    const config = testConfig(storage, { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] });
    const first = await buildTestApp(t, driver, {}, { config });
    const token = await issueToken(t, first);
    if (driver === 'sqlite') await first.app.close();

    const wrong = { ...config, security: { ...config.security, encryption_key: otherKey } };
    await t.rejects(buildTestApp(t, driver, {}, { config: wrong }), /security\.encryption_key is not the key this store was written with/);

    const again = await buildTestApp(t, driver, {}, { config });
    t.equal((await postChat(again, token, chatBody('same key'))).statusCode, 200, 'an instance with the right key serves the stored tokens');
  });
}

t.test('a store written before the check existed is checked against a stored key before the check value is written', async (t) => {
  const fake = await startGx(t);
  const config = testConfig(storageFor(t, 'sqlite'), { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] });
  const first = await buildTestApp(t, 'sqlite', {}, { config });
  const token = await issueToken(t, first);
  // As a store from before the check: no check value.
  await first.app.gateway.resolve(InjectionTokens.storeBackend).keyv('security').delete('encryption-key-check');
  await first.app.close();

  const wrong = { ...config, security: { ...config.security, encryption_key: otherKey } };
  await t.rejects(buildTestApp(t, 'sqlite', {}, { config: wrong }), /security\.encryption_key is not the key this store was written with/, 'the wrong key cannot open the stored API key, so it is refused and writes nothing');
  const again = await buildTestApp(t, 'sqlite', {}, { config });
  t.equal((await postChat(again, token, chatBody('right key'))).statusCode, 200, 'the right key starts, writes the check value and serves');
  await again.app.close();
  await t.rejects(buildTestApp(t, 'sqlite', {}, { config: wrong }), /security\.encryption_key is not the key/, 'and from then on the check value refuses the wrong key');
});
