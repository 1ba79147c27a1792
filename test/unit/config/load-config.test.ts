import t from 'tap';
import { ConfigError } from '../../../core/config/config-error.js';
import { loadConfigFile, parseConfigText } from '../../../core/config/load-config.js';
import { unusedStorageKeys } from '../../../core/config/config-schema.js';

const problemsOf = (text: string, environment: NodeJS.ProcessEnv = {}) => {
  try {
    parseConfigText(text, 'gateway.yaml', environment);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the config to be refused');
};

const provider = (extra = '') => `
providers:
  - name: gx-main
    plugin: gx
    base_url: http://127.0.0.1:8080
    api_key: upstream-key
    models: [gx-2.5-pro]
${extra}`;

t.test('an empty file gives the documented defaults', async (t) => {
  const config = parseConfigText('', 'gateway.yaml', {});
  t.equal(config.server.host, '127.0.0.1');
  t.equal(config.server.port, 3000);
  t.equal(config.storage.driver, 'sqlite');
  t.equal(config.storage.data_dir, './data');
  t.same(config.groups, { default: { ratio: 1 } });
  t.same(config.providers, []);
});

t.test('the shipped config/gateway.yaml is valid without any environment', async (t) => {
  const { config } = loadConfigFile('config/gateway.yaml', {});
  t.equal(config.storage.driver, 'sqlite');
  t.equal(config.users[0]?.login_token, '');
  t.equal(config.users[0]?.role, 'admin', 'its admin entry says so');
});

t.test('a user entry is a user unless it says role: admin, and any other role names its path', async (t) => {
  const config = parseConfigText('users:\n  - { id: 1, username: ann, login_token: a }\n  - { id: 2, username: ben, login_token: b, role: admin }\n', 'gateway.yaml', {});
  t.same(config.users.map((user) => user.role), ['user', 'admin']);
  const error = problemsOf('users:\n  - { id: 1, username: ann, login_token: a, role: owner }\n');
  t.same(error.problems, [{ path: 'users[0].role', message: 'expected admin or user', line: 2 }]);
});

t.test('budgets run in UTC unless budgets.time_zone names another IANA zone; an unknown zone and a bad user budget name their paths', async (t) => {
  t.equal(parseConfigText('', 'gateway.yaml', {}).budgets.time_zone, 'UTC');
  t.equal(parseConfigText('budgets: { time_zone: Europe/Berlin }\n', 'gateway.yaml', {}).budgets.time_zone, 'Europe/Berlin');
  t.match(problemsOf('budgets: { time_zone: Mars/Olympus }\n').problems, [{ path: 'budgets.time_zone', message: /IANA time zone/ }]);
  const config = parseConfigText('users:\n  - { id: 1, username: ann, login_token: a, budget_daily: 500000, budget_mode: soft }\n', 'gateway.yaml', {});
  t.match(config.users[0], { budget_daily: 500000, budget_mode: 'soft' });
  t.match(problemsOf('users:\n  - { id: 1, username: ann, login_token: a, budget_weekly: -1 }\n').problems, [{ path: 'users[0].budget_weekly', message: 'expected at least 0' }]);
  t.match(problemsOf('users:\n  - { id: 1, username: ann, login_token: a, budget_mode: sometimes }\n').problems, [{ path: 'users[0].budget_mode', message: 'expected hard or soft' }]);
});

t.test('${VAR} and ${VAR:-default} are read from the environment, and numbers may come as strings', async (t) => {
  const config = parseConfigText('server: { port: "${PORT}", host: "${HOST:-0.0.0.0}" }\n' + provider().replace('upstream-key', '${KEY}'), 'gateway.yaml', {
    PORT: '8080',
    KEY: 'from-environment',
  });
  t.equal(config.server.port, 8080);
  t.equal(config.server.host, '0.0.0.0');
  t.equal(config.providers[0]?.api_key, 'from-environment');
});

t.test('$$ stands for a literal dollar sign', async (t) => {
  const config = parseConfigText(provider().replace('upstream-key', 'pa$$word'), 'gateway.yaml', {});
  t.equal(config.providers[0]?.api_key, 'pa$word');
});

t.test('an environment value cannot inject YAML structure', async (t) => {
  const config = parseConfigText(provider().replace('upstream-key', '${KEY}'), 'gateway.yaml', { KEY: 'x\nserver: { port: 1 }' });
  t.equal(config.providers[0]?.api_key, 'x\nserver: { port: 1 }');
  t.equal(config.server.port, 3000);
});

t.test('an unset variable without a default is an error naming its path and variable', async (t) => {
  const error = problemsOf(provider().replace('upstream-key', '${GX_API_KEY}'));
  t.match(error.message, /providers\[0\]\.api_key: environment variable GX_API_KEY is not set \(line 6\)/);
});

t.test('a value from the environment that the schema refuses names the variable to change, never its value', async (t) => {
  const error = problemsOf('server:\n  port: ${GATEWAY_PORT:-3000}\n' + provider().replace('upstream-key', '${GX_API_KEY}'), {
    GATEWAY_PORT: 'abc',
    GX_API_KEY: 'sk-secret-value',
  });
  t.match(error.message, /server\.port: expected an integer \(from the environment: GATEWAY_PORT\) \(line 2\)/);
  t.notMatch(error.message, /abc|sk-secret-value/, 'no value in the message');
  t.equal(error.problems.length, 1, 'a value the schema takes names nothing');
});

t.test('unknown keys are errors at their YAML path', async (t) => {
  const error = problemsOf('server:\n  port: 3000\n  colour: blue\n');
  t.same(error.problems, [{ path: 'server.colour', message: 'unknown key', line: 3 }]);
});

t.test('a wrong type names the YAML path: providers[1].base_url: expected a URL', async (t) => {
  const error = problemsOf(`${provider()}  - name: second
    plugin: gx
    base_url: not-a-url
    models: [m]
`);
  t.match(error.message, /providers\[1\]\.base_url: expected a URL \(line 10\)/);
});

t.test('every problem is listed, in file order', async (t) => {
  const error = problemsOf('server:\n  port: abc\nstorage:\n  driver: mysql\n');
  t.same(
    error.problems.map((problem) => problem.path),
    ['server.port', 'storage.driver'],
  );
  t.match(error.problems[0]?.message, /expected an integer/);
  t.match(error.problems[1]?.message, /expected one of sqlite, memory, redis, postgres/);
});

t.test('a missing required key is reported as required', async (t) => {
  const error = problemsOf('providers:\n  - name: a\n    plugin: gx\n    models: [m]\n');
  t.same(error.problems, [{ path: 'providers[0].base_url', message: 'required', line: 2 }]);
});

t.test('secret values never appear in errors', async (t) => {
  const error = problemsOf(`${provider().replace('upstream-key', 'sk-super-secret-value')}    weight: lots\n`);
  t.notMatch(error.message, /super-secret/);
  t.match(error.message, /providers\[0\]\.weight/);
});

t.test('the redis driver needs a url and a shared encryption key', async (t) => {
  const error = problemsOf('storage: { driver: redis }\n');
  t.match(error.message, /storage\.url: required when driver is redis/);
  const second = problemsOf('storage: { driver: redis, url: "redis://127.0.0.1:6379" }\n');
  t.match(second.message, /security\.encryption_key: required with the redis driver/);
});

t.test('the postgres driver needs a postgres:// url and a shared encryption key, and takes a schema name', async (t) => {
  t.match(problemsOf('storage: { driver: postgres }\n').message, /storage\.url: required when driver is postgres/);
  t.match(problemsOf('storage: { driver: postgres, url: "redis://127.0.0.1:6379" }\n').message, /storage\.url: expected a postgres:\/\/ URL/);
  t.match(problemsOf('storage: { driver: redis, url: "postgres://127.0.0.1:5432/db" }\n').message, /storage\.url: expected a redis:\/\/ URL/);
  const keyless = problemsOf('storage: { driver: postgres, url: "postgres://127.0.0.1:5432/db" }\n');
  t.match(keyless.message, /security\.encryption_key: required with the postgres driver/);
  t.notMatch(keyless.message, /storage\./, 'the storage section itself is valid');
  t.match(problemsOf('storage: { driver: postgres, url: "postgres://127.0.0.1:5432/db", schema: "Gateway-1" }\n').message, /storage\.schema: expected a schema name of lower-case letters/);
});

t.test('switching storage.driver is one edit: the other drivers\' keys are kept, unused, and named as ignored', async (t) => {
  const postgres = parseConfigText(`storage: { driver: postgres, url: "postgres://127.0.0.1:5432/db", path: ./data/gateway.sqlite }\nsecurity: { encryption_key: "${'k'.repeat(32)}" }\n`, 'gateway.yaml');
  t.equal(postgres.storage.driver, 'postgres');
  t.same(unusedStorageKeys(postgres.storage), [{ path: 'storage.path', message: 'ignored with driver postgres: only sqlite uses it' }]);
  const sqlite = parseConfigText('storage: { driver: sqlite, url: "postgres://127.0.0.1:5432/db", schema: gateway }\n', 'gateway.yaml');
  t.same(unusedStorageKeys(sqlite.storage), [
    { path: 'storage.url', message: 'ignored with driver sqlite: only redis and postgres use it' },
    { path: 'storage.schema', message: 'ignored with driver sqlite: only postgres uses it' },
  ]);
  t.same(unusedStorageKeys(parseConfigText('storage: { driver: sqlite, path: ./g.sqlite }\n', 'gateway.yaml').storage), [], 'nothing unused, nothing said');
});

t.test('groups must include default, and references to groups must exist', async (t) => {
  const error = problemsOf(`groups: { vip: { ratio: 1 } }\nauto_groups: [gold]\n`);
  t.match(error.message, /groups: expected a "default" group/);
  t.match(error.message, /auto_groups\[0\]: unknown group "gold"/);
});

t.test('duplicate provider names and users are refused', async (t) => {
  const error = problemsOf(`${provider()}  - name: gx-main
    plugin: gx
    base_url: http://127.0.0.1:8081
    models: [m]
users:
  - { id: 1, username: a, login_token: x }
  - { id: 1, username: a, login_token: y }
`);
  t.match(error.message, /providers\[1\]\.name: duplicate provider name "gx-main"/);
  t.match(error.message, /users\[1\]\.id: duplicate user id 1/);
  t.match(error.message, /users\[1\]\.username: duplicate username "a"/);
});

t.test('invalid YAML is reported with its line', async (t) => {
  const error = problemsOf('server:\n  port: [1, 2\n');
  t.match(error.message, /invalid YAML/);
  t.ok(error.problems[0]?.line !== undefined);
});

t.test('a missing file is a clear error', async (t) => {
  t.throws(() => loadConfigFile('/nonexistent/gateway.yaml'), { name: 'ConfigError', message: /cannot read the file \(ENOENT: there is no such file\); pass the config's path with --config FILE or GATEWAY_CONFIG/ });
});

t.test('an alias chain that cycles or ends nowhere is refused at load, by the alias and its line', async (t) => {
  const text = `providers:
  - { name: gx-main, plugin: gx, base_url: "http://127.0.0.1:9", models: [gx-2.5-pro] }
aliases:
  team-pro: gx-2.5-pro
  loop-a: loop-b
  loop-b: loop-a
  gone: gx-1.0-ultra
`;
  const error = problemsOf(text);
  t.same(error.problems.map((problem) => [problem.path, problem.line]), [
    ['aliases["loop-a"]', 5],
    ['aliases["loop-b"]', 6],
    ['aliases.gone', 7],
  ]);
  t.match(error.message, /aliases\["loop-a"\]: loop-a → loop-b → loop-a is a cycle/);
  t.match(error.message, /aliases\.gone: gone → gx-1\.0-ultra ends at "gx-1\.0-ultra", which no channel serves/);
});

const oidc = (fields: string, redirectUrl = 'https://gateway.example.com/api/sign-in/oidc/callback') =>
  `auth:\n  oidc:\n    issuer: https://accounts.example.com\n    client_id: gateway\n    redirect_url: ${redirectUrl}\n${fields}`;

t.test('auth.oidc is absent unless configured, and gets its documented defaults', async (t) => {
  t.same(parseConfigText('', 'gateway.yaml', {}).auth, {});
  t.same(parseConfigText(oidc(''), 'gateway.yaml', {}).auth.oidc, {
    issuer: 'https://accounts.example.com',
    client_id: 'gateway',
    client_secret: '',
    redirect_url: 'https://gateway.example.com/api/sign-in/oidc/callback',
    admin_claim: '',
    scopes: ['openid', 'profile', 'email'],
    display_name: 'SSO',
    session_hours: 12,
  });
  const prefixed = 'https://example.com/gateway/api/sign-in/oidc/callback';
  t.equal(parseConfigText(oidc('', prefixed), 'gateway.yaml', {}).auth.oidc?.redirect_url, prefixed, 'behind a proxy, under a path prefix');
});

t.test('auth.oidc refuses a redirect_url off the callback route, plain http off loopback, a scope list without openid and an unknown key, naming each path', async (t) => {
  t.match(problemsOf(oidc('', 'https://gateway.example.com/callback')).problems, [
    { path: 'auth.oidc.redirect_url', message: /expected the gateway's public address followed by \/api\/sign-in\/oidc\/callback/ },
  ]);
  t.match(problemsOf(oidc('').replace('https://accounts.example.com', 'http://accounts.example.com')).problems, [
    { path: 'auth.oidc.issuer', message: 'expected an https URL (plain http is accepted on localhost, 127.0.0.1 and [::1] only)' },
  ]);
  t.equal(parseConfigText(oidc('').replace('https://accounts.example.com', 'http://127.0.0.1:8080'), 'gateway.yaml', {}).auth.oidc?.issuer, 'http://127.0.0.1:8080', 'http on loopback is accepted');
  t.match(problemsOf(oidc('    scopes: [profile, email]\n')).problems, [{ path: 'auth.oidc.scopes', message: 'expected a list that holds openid' }]);
  t.match(problemsOf(oidc('    admin_claim: "=admin"\n')).problems, [{ path: 'auth.oidc.admin_claim', message: /expected a claim name/ }]);
  t.match(problemsOf(oidc('    client_scret: x\n')).problems, [{ path: 'auth.oidc.client_scret', message: 'unknown key' }]);
  t.match(problemsOf('auth:\n  oidc:\n    issuer: https://accounts.example.com\n').problems, [
    { path: 'auth.oidc.client_id', message: /required/ },
    { path: 'auth.oidc.redirect_url', message: /required/ },
  ]);
});

t.test('the OpenID client secret never appears in a config error', async (t) => {
  const error = problemsOf(oidc('    client_secret: oidc-very-secret-value\n    session_hours: forever\n'));
  t.match(error.message, /auth\.oidc\.session_hours/);
  t.notMatch(error.message, /very-secret/);
});
