import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { runCli } from '../../server/cli.js';
import { loadConfigFile } from '../../core/config/load-config.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { testEncryptionKey } from '../helpers/test-config.js';
import { typescriptLoader } from '../helpers/cli-gateway-process.js';
import { tryConnect, waitUntilRefused } from '../helpers/try-connect.js';

/** Runs the CLI in this process and keeps what it wrote. */
async function cli(argv: string[]): Promise<{ code: number; out: string; error: string }> {
  let out = '';
  let error = '';
  const code = await runCli(argv, { out: (text) => (out += text), error: (text) => (error += text) });
  return { code, out, error };
}

/** A valid config on a sqlite file in `directory`, listening on a free port. */
function validConfig(directory: string): string {
  return `server:
  host: 127.0.0.1
  port: 0
  shutdown_grace_ms: 5000
storage:
  driver: sqlite
  path: ${join(directory, 'gateway.sqlite')}
  data_dir: ${directory}
security:
  encryption_key: ${testEncryptionKey}
groups:
  default: { ratio: 1 }
providers:
  - name: gx-main
    plugin: gx
    base_url: http://127.0.0.1:9/gx
    api_key: upstream-secret
    models: [gx-2.5-pro, "gx-3*"]
`;
}

function writeConfig(t: Test, text: (directory: string) => string): { directory: string; file: string } {
  const directory = t.testdir({});
  const file = join(directory, 'gateway.yaml');
  writeFileSync(file, text(directory));
  return { directory, file };
}

/** The 1-based line of the first line of `text` that contains `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

t.test('config check', async (t) => {
  t.test('a valid file exits 0 and says OK', async (t) => {
    const { file } = writeConfig(t, validConfig);
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 0);
    t.equal(result.out, `${file}: OK\n`);
    t.equal(result.error, '');
  });

  t.test('the shipped config/gateway.yaml passes', async (t) => {
    const result = await cli(['config', 'check', '--config', 'config/gateway.yaml']);
    t.equal(result.code, 0);
    t.match(result.out, /OK/);
  });

  t.test('switching storage.driver keeps the old driver\'s path, and the check says it is ignored', async (t) => {
    const { file } = writeConfig(t, (directory) => validConfig(directory).replace('  driver: sqlite\n', '  driver: memory\n'));
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 0);
    t.equal(result.out, `${file}: OK\n`);
    t.equal(result.error, 'warning: storage.path: ignored with driver memory: only sqlite uses it\n');
  });

  t.test('the check loads every plugin as start does: an unknown family, a missing file and an unknown option fail it, and start, with their lines', async (t) => {
    const { file } = writeConfig(
      t,
      (directory) =>
        // A configured user: start then creates no first admin (and logs nothing) before it loads the plugins.
        `users:\n  - { id: 1, username: admin, role: admin, login_token: mgu_cli_test_admin_login_token_000000000001 }\n` +
        validConfig(directory) +
        `  - name: typo
    plugin: gxx
    base_url: http://127.0.0.1:9/gx
    models: [gx-3.5-flash]
  - name: local
    plugin: ./missing-plugin.js
    base_url: http://127.0.0.1:9/gx
    models: [gx-3.1-pro-preview]
  - name: options
    plugin: gx
    base_url: http://127.0.0.1:9/gx
    models: [gx-2.5-flash]
    options: { no_such_option: 1 }
`,
    );
    const text = readFileSync(file, 'utf8');
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1);
    t.equal(result.out, '', 'no OK for a file start would refuse');
    t.same(result.error.trimEnd().split('\n'), [
      `${file}: 3 problems`,
      `providers[1].plugin: cannot load "gxx": "gxx" is neither a built-in family, a path (start it with ./), nor an installed package; the built-in families are audio, dse, dsr, dsx, gi, gp, gx, hx, qi, sdx, sr, stt, tts, vo, wn, wn-hx (line ${lineOf(text, 'plugin: gxx')})`,
      `providers[2].plugin: cannot load "./missing-plugin.js": no file at ${join(dirname(file), 'missing-plugin.js')} (line ${lineOf(text, 'plugin: ./missing-plugin.js')})`,
      `providers[3].options.no_such_option: unknown key (line ${lineOf(text, 'no_such_option')})`,
    ]);
    const started = await cli(['start', '--config', file]);
    t.equal(started.code, 1, 'start refuses the file');
    t.equal(started.error, result.error, 'with the same problems and lines, and no stack trace');
  });

  t.test('a served model that nothing prices fails the check, naming the model, its channel and the fixes', async (t) => {
    const text = (directory: string) =>
      validConfig(directory).replace('models: [gx-2.5-pro, "gx-3*"]', 'models: [gx-2.5-pro, gx-9-experimental, "gx-3*", "lab-*", "dsx-*"]\n    model_map: { gx-latest: gx-9-experimental }') +
      'pricing:\n  "dsx-*": { per_second: 0.2 }\n';
    const { file } = writeConfig(t, text);
    const source = readFileSync(file, 'utf8');
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1, 'an unpriced model fails the check');
    t.equal(result.out, '');
    t.same(result.error.trimEnd().split('\n'), [
      `${file}: 3 problems`,
      `providers[0].models[1]: "gx-9-experimental" (channel gx-main) has no price in pricing or the price catalog: add it under pricing, map it (model_map) to a priced model, or set billing.allow_free_models: true to serve unpriced models free (line ${lineOf(source, 'models: [')})`,
      `providers[0].models[3]: the pattern "lab-*" (channel gx-main) matches no model with a price: add "lab-*" under pricing, or set billing.allow_free_models: true to serve unpriced models free (line ${lineOf(source, 'models: [')})`,
      `providers[0].model_map["gx-latest"]: "gx-latest" (channel gx-main) has no price in pricing or the price catalog: add it under pricing, map it (model_map) to a priced model, or set billing.allow_free_models: true to serve unpriced models free (line ${lineOf(source, 'model_map:')})`,
    ]);
    const started = await cli(['start', '--config', file]);
    t.equal(started.code, 1, 'start refuses the same config before it listens');
    t.match(started.error, /"gx-9-experimental" \(channel gx-main\) has no price/);

    const priced = writeConfig(t, (directory) => text(directory).replace('pricing:\n', 'pricing:\n  gx-9-experimental: { input_per_mtok: 1 }\n  "lab-*": { per_call: 0.01 }\n'));
    const quiet = await cli(['config', 'check', '--config', priced.file]);
    t.equal(quiet.code, 0, 'an operator price fixes each problem; the model_map key is priced by what it calls');
    t.equal(quiet.error, '');

    const free = writeConfig(t, (directory) => `${text(directory)}billing: { allow_free_models: true }\n`);
    const allowed = await cli(['config', 'check', '--config', free.file]);
    t.equal(allowed.code, 0, 'with free models allowed the check passes');
    t.equal(allowed.out, `${free.file}: OK\n`);
    t.same(allowed.error.trimEnd().split('\n'), [
      `warning: providers[0].models[1]: "gx-9-experimental" (channel gx-main) has no price: it is served free (billing.allow_free_models) (line ${lineOf(source, 'models: [')})`,
      `warning: providers[0].models[3]: the pattern "lab-*" (channel gx-main) matches no model with a price: those models are served free (billing.allow_free_models) (line ${lineOf(source, 'models: [')})`,
      `warning: providers[0].model_map["gx-latest"]: "gx-latest" (channel gx-main) has no price: it is served free (billing.allow_free_models) (line ${lineOf(source, 'model_map:')})`,
    ]);

    const off = writeConfig(t, (directory) => `${validConfig(directory)}billing: { price_catalog: false }\n`);
    const withoutCatalog = await cli(['config', 'check', '--config', off.file]);
    t.equal(withoutCatalog.code, 1);
    t.match(withoutCatalog.error, /"gx-2\.5-pro" \(channel gx-main\) has no price/, 'without the catalog a spec model needs a pricing entry');
  });

  t.test('a model_map that calls a vendor model by its own name is priced by the catalog entry standing for it', async (t) => {
    const { file } = writeConfig(t, (directory) => validConfig(directory).replace('models: [gx-2.5-pro, "gx-3*"]', 'models: [gx-2.5-pro, "gx-3*"]\n    model_map: { team-pro: gemini-2.5-pro }'));
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 0, result.error);
    t.equal(result.error, '');
  });

  t.test('an invalid file exits 1 and lists every problem by YAML path, never a secret value', async (t) => {
    const previous = process.env.MG_CLI_TEST_PORT;
    process.env.MG_CLI_TEST_PORT = 'envsecretvalue321';
    t.teardown(() => {
      if (previous === undefined) delete process.env.MG_CLI_TEST_PORT;
      else process.env.MG_CLI_TEST_PORT = previous;
    });
    const text = `server:
  port: \${MG_CLI_TEST_PORT}
  bogus: 1
security:
  encryption_key: shortsecretvalue789
users:
  - { id: 1, username: admin, login_token: "\${MG_CLI_TEST_UNSET_VARIABLE}" }
providers:
  - name: gx-main
    plugin: gx
    base_url: not a url
    api_key: supersecretvalue123
    models: [gx-2.5-pro]
  - name: gx-second
    plugin: gx
    base_url: http://127.0.0.1:9/gx
    api_keys: supersecretvalue456
    models: [gx-2.5-pro]
`;
    const { file } = writeConfig(t, () => text);
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1);
    t.equal(result.out, '', 'nothing on standard output');
    const lines = result.error.trimEnd().split('\n');
    t.equal(lines[0], `${file}: 6 problems`);
    t.same(lines.slice(1), [
      `server.port: expected an integer (from the environment: MG_CLI_TEST_PORT) (line ${lineOf(text, 'port:')})`,
      `server.bogus: unknown key (line ${lineOf(text, 'bogus:')})`,
      `security.encryption_key: expected at least 32 characters (or empty to generate one) (line ${lineOf(text, 'encryption_key:')})`,
      `users[0].login_token: environment variable MG_CLI_TEST_UNSET_VARIABLE is not set (line ${lineOf(text, 'login_token')})`,
      `providers[0].base_url: expected a URL (line ${lineOf(text, 'not a url')})`,
      `providers[1].api_keys: expected a list of keys (line ${lineOf(text, 'api_keys:')})`,
    ]);
    for (const secret of ['supersecretvalue123', 'supersecretvalue456', 'shortsecretvalue789', 'envsecretvalue321', 'upstream']) {
      t.notOk(result.error.includes(secret), `"${secret}" is not shown`);
    }
  });

  t.test('a short encryption key is named by its path, not shown', async (t) => {
    const text = validConfig('/tmp/unused').replace(testEncryptionKey, 'shortsecretvalue789');
    const { file } = writeConfig(t, () => text);
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1);
    t.equal(result.error, `${file}: 1 problem\nsecurity.encryption_key: expected at least 32 characters (or empty to generate one) (line ${lineOf(text, 'encryption_key:')})\n`);
  });

  t.test('a YAML syntax error next to a secret does not echo the secret', async (t) => {
    const text = `providers:
  - name: gx-main
    api_key: "supersecretvalue123
    models: [gx-2.5-pro
`;
    const { file } = writeConfig(t, () => text);
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1);
    t.match(result.error, /invalid YAML/);
    t.notOk(result.error.includes('supersecretvalue123'), 'the secret is not shown');
  });

  t.test('a missing or unreadable file exits 1 with one line that says how to name the config', async (t) => {
    const directory = t.testdir({ folder: {} });
    const file = join(directory, 'absent.yaml');
    // A folder where the file should be: unreadable whoever runs the test (root reads a file of mode 000).
    const folder = join(directory, 'folder');
    for (const command of [['config', 'check'], ['start']]) {
      const result = await cli([...command, '--config', file]);
      t.equal(result.code, 1);
      t.equal(
        result.error,
        `${file}: cannot read the file (ENOENT: there is no such file); pass the config's path with --config FILE or GATEWAY_CONFIG (the default is config/gateway.yaml)\n`,
        command.join(' '),
      );
      const unreadable = await cli([...command, '--config', folder]);
      t.equal(unreadable.code, 1);
      t.equal(
        unreadable.error,
        `${folder}: cannot read the file (EISDIR: it is a folder); pass the config's path with --config FILE or GATEWAY_CONFIG (the default is config/gateway.yaml)\n`,
        `${command.join(' ')} on a folder`,
      );
    }
  });
});

t.test('users create prints a login token once that signs in to an app on the same store, and users list shows the user', async (t) => {
  const { file } = writeConfig(t, validConfig);
  const created = await cli(['users', 'create', 'carol', '--config', file]);
  t.equal(created.code, 0);
  t.equal(created.error, '');
  const tokens = created.out.match(/mgu_[0-9A-Za-z]{43}/g) ?? [];
  t.equal(tokens.length, 1, 'the token is printed exactly once');
  t.match(created.out, /created user carol \(id \d+\)/);
  const loginToken = tokens[0] as string;

  const duplicate = await cli(['users', 'create', 'carol', '--config', file]);
  t.equal(duplicate.code, 1, 'a taken username exits 1');
  t.match(duplicate.error, /"carol" is taken/);
  t.notMatch(duplicate.out, /mgu_/, 'and prints no token');

  const invalid = await cli(['users', 'create', 'no spaces!', '--config', file]);
  t.equal(invalid.code, 1, 'an invalid username exits 1');
  t.match(invalid.error, /username/);

  const users = await cli(['users', 'list', '--config', file]);
  t.equal(users.code, 0);
  t.match(users.out, /^id\s+username\s+role\s+status\s+created \(UTC\)\n1\s+carol\s+user\s+enabled\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\n$/, 'users list shows the user, its role and status');
  t.notMatch(users.out, /mgu_/, 'and never a login token');

  const gateway = await buildTestApp(t, 'sqlite', {}, { config: loadConfigFile(file).config });
  const listed = await gateway.asUser(loginToken, { method: 'GET', url: '/api/token/' });
  t.equal(listed.statusCode, 200);
  t.equal(listed.json().success, true, 'the printed token authenticates');
  t.notMatch(gateway.logLines.join(''), 'created the first admin user', 'the store already has a user, so no admin is generated');
});

t.test('usage errors and help', async (t) => {
  const help = await cli(['--help']);
  t.equal(help.code, 0, '--help exits 0');
  t.match(help.out, /^Usage: model-gateway/);

  const version = await cli(['--version']);
  t.equal(version.code, 0, '--version exits 0');
  t.equal(version.out, `model-gateway ${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version}\n`);

  const unknown = await cli(['frobnicate']);
  t.equal(unknown.code, 2, 'an unknown command exits 2');
  t.match(unknown.error, /unknown command "frobnicate"/);
  t.match(unknown.error, /Usage:/);

  const bare = await cli([]);
  t.equal(bare.code, 2, 'no command exits 2 with the usage');
  t.match(bare.out, /Usage:/);

  const option = await cli(['config', 'check', '--bogus']);
  t.equal(option.code, 2, 'an unknown option exits 2');

  const incomplete = await cli(['users', 'create']);
  t.equal(incomplete.code, 2, 'users create without a name exits 2');
});

t.test('start refuses an invalid config with exit 1 before listening', async (t) => {
  const { file } = writeConfig(t, () => 'server: { port: 99999 }\n');
  const result = await cli(['start', '--config', file]);
  t.equal(result.code, 1);
  t.match(result.error, /server\.port: expected at most 65535/);
});

t.test('start fails with a clear message when PostgreSQL does not answer, instead of waiting forever', async (t) => {
  const { file } = writeConfig(
    t,
    (directory) => `server: { host: 127.0.0.1, port: 0 }
storage: { driver: postgres, url: "postgres://gateway:pg-secret-5d@127.0.0.1:9/billing", data_dir: ${directory} }
security: { encryption_key: ${testEncryptionKey} }
`,
  );
  const result = await cli(['start', '--config', file]);
  t.equal(result.code, 1);
  t.match(result.error, /^PostgreSQL did not open the schema "model_gateway": .*check storage\.url and that PostgreSQL is running\n$/, 'one line, no stack trace');
  t.notMatch(result.error, /pg-secret-5d/, 'the password is not in the message');
});

t.test('start fails with a clear message when Redis does not answer, instead of waiting forever', async (t) => {
  const { file } = writeConfig(
    t,
    (directory) => `server: { host: 127.0.0.1, port: 0 }
storage: { driver: redis, url: "redis://127.0.0.1:9", data_dir: ${directory} }
security: { encryption_key: ${testEncryptionKey} }
`,
  );
  const result = await cli(['start', '--config', file]);
  t.equal(result.code, 1);
  t.match(result.error, /^Redis did not answer within \d+ ms; check storage\.url and that Redis is running\n$/, 'one line, no stack trace');
});

t.test('start on a port another process holds exits 1 with one line naming server.port and GATEWAY_PORT', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  const port = (holder.address() as AddressInfo).port;
  const { file } = writeConfig(t, (directory) => validConfig(directory).replace('port: 0', `port: ${port}`));
  const result = await cli(['start', '--config', file]);
  t.equal(result.code, 1);
  t.equal(result.error, `127.0.0.1:${port} is already in use by another process: set server.port in ${file} (the shipped config reads GATEWAY_PORT) to a free port, or stop that process\n`);
});

t.test("a data_dir or SQLite path that cannot be written fails start and users list in one line naming the key, and leaves no admin without its login token", async (t) => {
  const { directory, file } = writeConfig(t, (directory) => validConfig(directory).replace(`data_dir: ${directory}`, `data_dir: ${join(directory, 'in-the-way')}`));
  // A file where the data directory must be: no user may write there, root included.
  writeFileSync(join(directory, 'in-the-way'), 'not a folder\n');
  const dataDirMessage = `cannot write to the data directory ${join(directory, 'in-the-way')}: ${join(directory, 'in-the-way')} (EEXIST: a file is where a folder must be); set storage.data_dir in ${file} to a folder this user may write (the generated encryption key, the first admin's login token and the pid file go there)\n`;
  const started = await cli(['start', '--config', file]);
  t.equal(started.code, 1);
  t.equal(started.error, dataDirMessage, 'the first admin\'s login token cannot be written: one line, no stack trace');
  const listed = await cli(['users', 'list', '--config', file]);
  t.equal(listed.code, 0, 'the store itself opens');
  t.match(listed.out, /^no users yet/, 'and holds no admin whose login token went nowhere');

  const generatedKey = writeConfig(t, (directory) => validConfig(directory).replace(`data_dir: ${directory}`, `data_dir: ${join(directory, 'in-the-way')}`).replace(testEncryptionKey, '""'));
  writeFileSync(join(generatedKey.directory, 'in-the-way'), 'not a folder\n');
  const keyless = await cli(['start', '--config', generatedKey.file]);
  t.equal(keyless.code, 1);
  t.match(keyless.error, /^cannot write to the data directory .*; set storage\.data_dir in .* to a folder this user may write .*\n$/, 'the generated encryption key cannot be written either');

  const database = writeConfig(t, (directory) => validConfig(directory).replace(`path: ${join(directory, 'gateway.sqlite')}`, `path: ${join(directory, 'in-the-way', 'gateway.sqlite')}`));
  writeFileSync(join(database.directory, 'in-the-way'), 'not a folder\n');
  const databaseMessage = `cannot create the SQLite database ${join(database.directory, 'in-the-way', 'gateway.sqlite')}: ${join(database.directory, 'in-the-way')} (EEXIST: a file is where a folder must be); set storage.path in ${database.file} to a file in a folder this user may write\n`;
  for (const command of [['start'], ['users', 'list'], ['users', 'create', 'carol']]) {
    const result = await cli([...command, '--config', database.file]);
    t.equal(result.code, 1, command.join(' '));
    t.equal(result.error, databaseMessage, `${command.join(' ')}: one line naming storage.path`);
  }
});

/** The gateway as its own process, with its stdout lines. */
interface Server {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  /** Resolves with the first log line whose message matches. */
  waitForLog(
    pattern: RegExp,
    options?: { timeoutMilliseconds?: number; where?: (entry: Record<string, unknown>) => boolean },
  ): Promise<{ msg: string } & Record<string, unknown>>;
}

function startServer(t: Test, configFile: string, extraEnvironment: NodeJS.ProcessEnv = {}): Server {
  const environment: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...extraEnvironment };
  delete environment.NODE_OPTIONS;
  const main = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', typescriptLoader(), main, 'start', '--config', configFile], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line !== ''));
    for (const waiter of waiters) waiter();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const parsed = () =>
    lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as { msg: string } & Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return {
    child,
    lines,
    exited,
    waitForLog(pattern, { timeoutMilliseconds = 20_000, where = () => true } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = parsed().find((entry) => pattern.test(entry.msg) && where(entry));
          if (found === undefined) return false;
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(
          () => reject(new Error(`no log line matching ${pattern} in time; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
          timeoutMilliseconds,
        );
        if (check()) return;
        waiters.push(check);
        void exited.then(() => setImmediate(() => check() || reject(new Error(`exited without ${pattern}; stderr:\n${stderr}`))));
      });
    },
  };
}

/** One HTTP request on its own connection; resolves with the status and body. */
function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | number> } = {},
): { sent: ReturnType<typeof request>; response: Promise<{ status: number; body: string }> } {
  const sent = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    sent.on('error', reject);
    sent.on('response', (incoming) => {
      let body = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
  });
  return { sent, response };
}

function get(url: string): Promise<{ status: number; body: string }> {
  const { sent, response } = httpRequest(url);
  sent.end();
  return response;
}

t.test('LOG_FORMAT=pretty writes readable lines instead of JSON; an unknown LOG_FORMAT is refused naming the choices', async (t) => {
  const { file } = writeConfig(t, validConfig);
  const server = startServer(t, file, { LOG_FORMAT: 'pretty' });
  // Generous: the child compiles the sources as it loads them, slow on a busy machine.
  const deadline = Date.now() + 60_000;
  while (!server.lines.some((line) => /INFO.*Server listening at http:\/\/127\.0\.0\.1:\d+/.test(line)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(server.lines.some((line) => /INFO.*Server listening at /.test(line)), `a readable listening line: ${server.lines.join(' | ')}`);
  t.notOk(server.lines.some((line) => line.startsWith('{"level"')), 'no JSON line');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);

  const refused = startServer(t, file, { LOG_FORMAT: 'yaml' });
  t.equal(await refused.exited, 1);
});

t.test('start serves until SIGTERM, finishes the request in flight, refuses new connections and exits 0', async (t) => {
  const { directory, file } = writeConfig(t, validConfig);
  const server = startServer(t, file);
  const listening = await server.waitForLog(/^Server listening at /);
  const address = /(http:\/\/127\.0\.0\.1:(\d+))/.exec(listening.msg);
  t.ok(address, `listens on a free port: ${listening.msg}`);
  const base = (address as RegExpExecArray)[1] as string;
  const port = Number((address as RegExpExecArray)[2]);
  // server.accepts_per_turn's default: the listening socket read through 64 descriptors, all of
  // which the stop below closes (or new connections would still be taken in).
  const accepting = await server.waitForLog(/^new connections: /);
  t.equal(accepting.acceptsPerTurn, 64, 'up to 64 new connections are taken in per turn of the loop');

  const health = await get(`${base}/healthz`);
  t.equal(health.status, 200, '/healthz answers 200');
  t.same(JSON.parse(health.body), { status: 'ok' });
  const ready = await get(`${base}/readyz`);
  t.equal(ready.status, 200, '/readyz answers 200');
  t.same(JSON.parse(ready.body), { status: 'ready', storage: 'sqlite' });

  // A request in flight: its headers are read, its body not yet sent. The server answers
  // `100 Continue` as it hands the request to the gateway.
  const loginToken = readFileSync(join(directory, 'admin-login-token'), 'utf8').trim();
  const body = JSON.stringify({ name: 'made while stopping', remain_quota: 5 });
  const inFlight = httpRequest(`${base}/api/token/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${loginToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const taken = new Promise((resolve) => inFlight.sent.once('continue', resolve));
  inFlight.sent.flushHeaders();
  await taken;
  inFlight.sent.write(body.slice(0, 5));

  server.child.kill('SIGTERM');
  await server.waitForLog(/^stopping/);
  t.equal(await waitUntilRefused(port), 'ECONNREFUSED', 'new connections are refused while the request in flight finishes');
  t.equal(server.child.exitCode, null, 'the process is still running for the request in flight');

  inFlight.sent.end(body.slice(5));
  const finished = await inFlight.response;
  t.equal(finished.status, 200, 'the request in flight completes');
  t.same(JSON.parse(finished.body), { success: true, message: '' });

  let exitTimer: NodeJS.Timeout | undefined;
  const code = await Promise.race([server.exited, new Promise((resolve) => (exitTimer = setTimeout(() => resolve('timeout'), 5000)))]);
  clearTimeout(exitTimer);
  t.equal(code, 0, 'the process exits 0 within a few seconds');
  const stopped = await server.waitForLog(/^stopped$/, { timeoutMilliseconds: 1000 });
  t.ok(stopped, 'and logs "stopped"');
  t.equal(await tryConnect(port), 'ECONNREFUSED', 'nothing listens afterwards');
  t.notOk(server.lines.join('\n').includes(loginToken), 'the login token never appears in the log');

  const restarted = await buildTestApp(t, 'sqlite', {}, { config: loadConfigFile(file).config });
  const listed = await restarted.asUser(loginToken, { method: 'GET', url: '/api/token/' });
  t.equal(listed.json().data.items[0]?.name, 'made while stopping', 'what the request in flight wrote was kept');
});
