import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { builtInTranslatorNames, loadTranslators } from '../../../core/loader/load-translators.js';

/** A `translators/` folder of built-ins, each `<name>/index.js` exporting a translator of that name; a folder without an index is no translator. */
function builtIns(t: Test, names: string[]): string {
  const directory = mkdtempSync(join(tmpdir(), 'built-in-translators-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  for (const name of names) {
    mkdirSync(join(directory, name));
    writeFileSync(
      join(directory, name, 'index.js'),
      `export default { name: ${JSON.stringify(name)}, client: 'responses', served: ['chat'], request: (request) => ({ operation: 'chat', request }), answer: (body) => body, stream: () => ({ push: (output) => [output], end: () => [] }) };\n`,
    );
  }
  mkdirSync(join(directory, 'notes'));
  return `${directory}/`;
}

t.test('without a translators key every built-in translator loads, by folder name in order', async (t) => {
  const directory = builtIns(t, ['zeta-to-chat', 'alpha-to-chat']);
  t.strictSame(builtInTranslatorNames(directory), ['alpha-to-chat', 'zeta-to-chat'], 'a folder without an index module is passed over');
  const loaded = await loadTranslators(undefined, 'gateway.yaml', directory);
  t.strictSame(loaded.map((translator) => translator.name), ['alpha-to-chat', 'zeta-to-chat']);
});

t.test('a list loads the built-ins it names, in its order, and an empty one none', async (t) => {
  const directory = builtIns(t, ['alpha-to-chat', 'zeta-to-chat']);
  t.strictSame((await loadTranslators(['zeta-to-chat', 'alpha-to-chat'], 'gateway.yaml', directory)).map((translator) => translator.name), ['zeta-to-chat', 'alpha-to-chat']);
  t.strictSame(await loadTranslators([], 'gateway.yaml', directory), []);
});

t.test('a name that is neither a built-in, a path nor a package fails the start by its YAML path', async (t) => {
  const directory = builtIns(t, ['alpha-to-chat']);
  await t.rejects(loadTranslators(['alpha-to-chat', 'no-such-translator'], 'gateway.yaml', directory), {
    name: 'ConfigError',
    problems: [{ path: 'translators[1]', message: /cannot load "no-such-translator": "no-such-translator" is neither a built-in translator, a path \(start it with \.\/\), nor an installed package/ }],
  });
});

t.test('without a translators folder (a build with no built-in translators) the default list is empty', async (t) => {
  t.strictSame(await loadTranslators(undefined, 'gateway.yaml', join(tmpdir(), 'no-such-translators-folder/')), []);
});

t.test('the shipped built-in translators all load, embeddings-to-native among them without a stream translation', async (t) => {
  const loaded = await loadTranslators(undefined, 'gateway.yaml');
  t.strictSame(loaded.map((translator) => translator.name), builtInTranslatorNames());
  t.equal(loaded.find((translator) => translator.name === 'embeddings-to-native')?.stream, undefined, 'embeddings never stream');
});

t.test('a translator without a stream translation fails the start when its client operation can stream', async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'built-in-translators-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  mkdirSync(join(directory, 'responses-to-chat'));
  writeFileSync(
    join(directory, 'responses-to-chat', 'index.js'),
    `export default { name: 'responses-to-chat', client: 'responses', served: ['chat'], request: (request) => ({ operation: 'chat', request }), answer: (body) => body };\n`,
  );
  await t.rejects(loadTranslators(['responses-to-chat'], 'gateway.yaml', `${directory}/`), {
    name: 'ConfigError',
    problems: [{ path: 'translators[0]', message: /is not a translator: stream must be a function: responses answers streams too/ }],
  });
});
