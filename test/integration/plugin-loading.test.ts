import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { buildApp } from '../../server/build-app.js';
import { ConfigError } from '../../core/config/config-error.js';
import { loadConfigFile } from '../../core/config/load-config.js';
import { buildTestApp, capturingLogger } from '../helpers/build-test-app.js';
import { chatBody, gxUpstreamKey, issueToken, postChat, startGx } from '../helpers/gateway-scenario.js';
import { echoPluginPath, testEncryptionKey } from '../helpers/test-config.js';

const echoPackageDirectory = dirname(echoPluginPath);
const echoSource = readFileSync(echoPluginPath, 'utf8');

/** A gateway.yaml with these channels (YAML flow mappings, one per line) and prices for every model they serve. */
function gatewayYaml(directory: string, channels: string[]): string {
  return [
    'storage: { driver: memory, data_dir: ' + JSON.stringify(directory) + ' }',
    `security: { encryption_key: ${testEncryptionKey} }`,
    'pricing:',
    '  gx-2.5-pro: { input_per_mtok: 1.25, output_per_mtok: 10 }',
    '  "echo-*": { per_call: 0.001 }',
    'providers:',
    ...channels.map((channel) => `  - ${channel}`),
    '',
  ].join('\n');
}

/**
 * A directory holding gateway.yaml, a copy of the echo plugin under ./local-plugins/echo/,
 * extra files, and node_modules/echo-provider as a symlink to the fixture package (so its
 * `zod` import resolves from the repository, as an installed package's would).
 */
function configDirectory(t: Test, channels: () => string[], files: Record<string, string> = {}): string {
  const directory = t.testdir({ 'local-plugins': { echo: { 'index.js': echoSource } }, ...files });
  mkdirSync(join(directory, 'node_modules'));
  symlinkSync(echoPackageDirectory, join(directory, 'node_modules', 'echo-provider'), 'dir');
  const file = join(directory, 'gateway.yaml');
  writeFileSync(file, gatewayYaml(directory, channels()));
  return file;
}

/** Starts the gateway from `file`; resolves with the ConfigError it fails with (or fails the test). */
async function startFailure(t: Test, file: string): Promise<ConfigError> {
  const { config } = loadConfigFile(file);
  try {
    const app = await buildApp(config, { configFile: file, logger: capturingLogger([]) });
    await app.close();
  } catch (error) {
    t.type(error, ConfigError, 'the start fails with a ConfigError');
    return error as ConfigError;
  }
  t.fail('the gateway started');
  throw new Error('the gateway started');
}

t.test('a channel names its plugin as a built-in family, a path relative to the config file, or an npm package', async (t) => {
  const fake = await startGx(t);
  const file = configDirectory(t, () => [
    `{ name: gx-builtin, plugin: gx, base_url: "${fake.url}", api_key: ${gxUpstreamKey}, models: [gx-2.5-pro] }`,
    `{ name: echo-by-path, plugin: ./local-plugins/echo/index.js, base_url: "http://127.0.0.1:9", models: [echo-path], options: { prefix: "path: " } }`,
    `{ name: echo-by-package, plugin: echo-provider, base_url: "http://127.0.0.1:9", models: [echo-package], options: { prefix: "package: " } }`,
  ]);
  const { config } = loadConfigFile(file);
  const gateway = await buildTestApp(t, 'memory', {}, { config, configFile: file });
  const token = await issueToken(t, gateway);

  const builtIn = await postChat(gateway, token, chatBody('hello builtin'));
  t.equal(builtIn.statusCode, 200, 'the built-in gx plugin answers');
  t.equal(builtIn.json().choices[0].message.content, 'echo: hello builtin');
  t.equal(fake.requests.length, 1, 'through the gx upstream');

  const byPath = await postChat(gateway, token, chatBody('hello path', { model: 'echo-path' }));
  t.equal(byPath.statusCode, 200, 'the plugin loaded by relative path answers');
  t.equal(byPath.json().choices[0].message.content, 'path: hello path', 'with its channel options');

  const byPackage = await postChat(gateway, token, chatBody('hello package', { model: 'echo-package' }));
  t.equal(byPackage.statusCode, 200, 'the plugin loaded as an npm package answers');
  t.equal(byPackage.json().choices[0].message.content, 'package: hello package', 'with its channel options');
  t.equal(fake.requests.length, 1, 'the echo channels never call the gx upstream');
});

t.test('a plugin of the first contract version still loads and serves, its handler given the validated client request', async (t) => {
  const plugin = (await import(pathToFileURL(echoPluginPath).href)) as { default: { apiVersion: number } };
  t.equal(plugin.default.apiVersion, 1, 'the echo fixture is written against version 1');
  const file = configDirectory(t, () => ['{ name: echo-first-version, plugin: echo-provider, base_url: "http://127.0.0.1:9", models: [echo-first] }']);
  const { config } = loadConfigFile(file);
  const gateway = await buildTestApp(t, 'memory', {}, { config, configFile: file });
  const token = await issueToken(t, gateway);

  const answer = await postChat(gateway, token, chatBody('hello version 1', { model: 'echo-first' }));
  t.equal(answer.statusCode, 200);
  t.equal(answer.json().choices[0].message.content, 'echo: hello version 1', 'its handler read the client messages as sent');
});

t.test("every family word of the spec loads as a plugin name; an old built-in name loads with a warning naming its replacement", async (t) => {
  const channel = (name: string, plugin: string, model: string) => `{ name: ${name}, plugin: ${plugin}, base_url: "http://127.0.0.1:9", models: [${model}] }`;
  const file = configDirectory(t, () => [
    ...['gx', 'gp', 'gi', 'dsr', 'dse', 'qi', 'sr', 'vo', 'wn', 'hx', 'dsx', 'sdx', 'audio', 'tts', 'stt'].map((family) => channel(`by-${family}`, family, `${family}-model`)),
    channel('by-old-name', 'dashscope-video', 'old-video-model'),
  ]);
  const { config } = loadConfigFile(file);
  const lines: string[] = [];
  const app = await buildApp(config, { configFile: file, logger: capturingLogger(lines) });
  t.teardown(() => app.close());
  const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string; path?: string }).filter((line) => line.level === 40 && line.path !== undefined);
  t.same(
    warnings.map((line) => [line.path, line.msg]),
    [['providers[15].plugin', 'plugin "dashscope-video" is an old name of the built-in "wn-hx" plugin; write plugin: "wn" or "hx" instead (the old name still loads in this release only)']],
  );
});

t.test('a module without a default export fails the start', async (t) => {
  const file = configDirectory(t, () => [`{ name: broken, plugin: ./named-only.js, base_url: "http://127.0.0.1:9", models: [echo-x] }`], {
    'named-only.js': 'export const plugin = { apiVersion: 1 };\n',
  });
  const error = await startFailure(t, file);
  t.match(error.problems, [{ path: 'providers[0].plugin', message: /no default export/ }]);
  t.match(error.message, /providers\[0\]\.plugin/, 'the message lists the problem by its YAML path');
});

t.test('a plugin of another apiVersion fails the start', async (t) => {
  const file = configDirectory(t, () => [`{ name: old, plugin: ./old-plugin.js, base_url: "http://127.0.0.1:9", models: [echo-x] }`], {
    'old-plugin.js': [
      'export default {',
      '  apiVersion: 3,',
      "  name: 'future',",
      '  options: { safeParse: (value) => ({ success: true, data: value }) },',
      '  create: () => ({ operations: {} }),',
      '};',
      '',
    ].join('\n'),
  });
  const error = await startFailure(t, file);
  t.match(error.problems, [{ path: 'providers[0].plugin', message: /apiVersion must be 1 or 2/ }]);
});

t.test('a version 2 plugin whose prepare is not one function per operation fails the start', async (t) => {
  const file = configDirectory(t, () => [`{ name: odd, plugin: ./odd-plugin.js, base_url: "http://127.0.0.1:9", models: [echo-x] }`], {
    'odd-plugin.js': [
      'export default {',
      '  apiVersion: 2,',
      "  name: 'odd',",
      '  options: { safeParse: (value) => ({ success: true, data: value }) },',
      "  prepare: { chat: 'not a function' },",
      '  create: () => ({ operations: {} }),',
      '};',
      '',
    ].join('\n'),
  });
  const error = await startFailure(t, file);
  t.match(error.problems, [{ path: 'providers[0].plugin', message: /prepare must be an object of one function per operation/ }]);
});

t.test('channel options the plugin refuses fail the start, named by their YAML path', async (t) => {
  const file = configDirectory(t, () => [
    `{ name: gx-bad, plugin: gx, base_url: "http://127.0.0.1:9", models: [gx-2.5-pro], options: { api_version: "latest!", colour: blue } }`,
    `{ name: echo-bad, plugin: echo-provider, base_url: "http://127.0.0.1:9", models: [echo-x], options: { prefix: 42 } }`,
  ]);
  const error = await startFailure(t, file);
  const paths = error.problems.map((problem) => problem.path).sort();
  t.same(paths, ['providers[0].options.api_version', 'providers[0].options.colour', 'providers[1].options.prefix'], 'every problem is listed at once');
  t.match(error.problems.find((problem) => problem.path === 'providers[0].options.colour'), { message: 'unknown key' });
  t.match(error.message, /providers\[0\]\.options\.api_version: expected a version/);
});

t.test('a package that is not installed, or a path with no file, fails the start', async (t) => {
  const file = configDirectory(t, () => [
    `{ name: ghost, plugin: no-such-provider-package, base_url: "http://127.0.0.1:9", models: [echo-x] }`,
    `{ name: lost, plugin: ./plugins/missing.js, base_url: "http://127.0.0.1:9", models: [echo-y] }`,
  ]);
  const error = await startFailure(t, file);
  t.match(error.problems, [
    { path: 'providers[0].plugin', message: /neither a built-in family, a path \(start it with \.\/\), nor an installed package/ },
    { path: 'providers[1].plugin', message: /no file at/ },
  ]);
});
