import { z } from 'zod';
import { assertTimeZone } from '../budgets/budget-periods.js';
import { budgetModes } from '../budgets/budget-settings.js';
import { aliasProblems, fallbackProblems } from '../routing/model-aliases.js';
import { userRoles } from '../users/user-repository.js';
import { defaultMaxJsonDepth, maxJsonDepthCeiling } from '../validation/json-depth.js';

/**
 * Numbers and booleans in the config may come from `${VAR}` interpolation, which yields
 * strings; these helpers accept the string spelling too, so `port: ${PORT:-3000}` works.
 */
const integer = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
    z
      .number({ error: 'expected an integer' })
      .int({ error: 'expected an integer' })
      .min(minimum, { error: `expected at least ${minimum}` })
      .max(maximum, { error: `expected at most ${maximum}` }),
  );

const nonNegativeNumber = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value),
  z.number({ error: 'expected a number' }).min(0, { error: 'expected a number of 0 or more' }),
);

const boolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'expected true or false' }),
);

/**
 * A section written as a bare key (`providers:` with every entry below it commented out, as
 * in the shipped config) is YAML null; it reads as the empty value, so uncommenting an entry
 * is all it takes to add one.
 */
const emptyAs = <T extends z.ZodType>(empty: z.input<T>, schema: T) => z.preprocess((value) => (value === null ? empty : value), schema);

const httpUrl = z
  .string({ error: 'expected a URL' })
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), { error: 'expected a URL' });

const name = z
  .string({ error: 'expected a string' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'expected letters, digits, ".", "_" or "-"' })
  .max(64, { error: 'at most 64 characters' });

const ipOrCidr = z.string({ error: 'expected an IP address or CIDR range' }).min(1);

const serverSchema = z.strictObject({
  host: z.string({ error: 'expected a host name or address' }).min(1).default('127.0.0.1'),
  port: integer(0, 65535).default(3000),
  trust_proxy: z.array(ipOrCidr, { error: 'expected a list of IP addresses or CIDR ranges' }).default([]),
  body_limit_mb: integer(1, 1024).default(32),
  // Links the gateway hands out to its own routes (a video's content route) are built on
  // this, never on a Host header a client can forge; see plugins/http/gateway-address.ts.
  public_url: httpUrl
    .refine((value) => !/[?#]/.test(value), { error: 'expected a base URL without query or fragment, e.g. https://api.example.com' })
    .optional(),
  allowed_hosts: z
    .array(z.string({ error: 'expected a host name or host:port' }).min(1), { error: 'expected a list of host names or host:port' })
    .default([]),
  max_json_depth: integer(1, maxJsonDepthCeiling).default(defaultMaxJsonDepth),
  shutdown_grace_ms: integer(0, 600_000).default(10_000),
  // Model requests one process (each worker) carries at once; past it a new one is refused
  // at arrival with 503 server_overloaded (plugins/http/in-flight-limit.ts). 0 turns it off.
  max_in_flight: integer(0, 1_000_000).default(512),
  // New connections one turn of the event loop takes in at most (server/listening-copies.ts):
  // libuv accepts one per turn and descriptor, and a full core turns every 50-200 ms. 1: libuv's own.
  accepts_per_turn: integer(1, 256).default(64),
  // `auto`: one worker per CPU the process may use. More than one needs a driver other than memory
  // (server/worker-storage-check.ts says why), checked at config check and start.
  workers: z
    .union([z.literal('auto'), integer(1, 1024)], { error: 'expected a number of worker processes (1 or more) or "auto"' })
    .default(1),
  // Slow clients (server/client-timeouts.ts): time for the request head, for the whole
  // request with its body, and for an idle keep-alive connection. None of them bounds a
  // response being written (SSE) or the wait for an upstream.
  headers_timeout_ms: integer(1, 600_000).default(20_000),
  request_timeout_ms: integer(1, 3_600_000).default(120_000),
  keep_alive_timeout_ms: integer(1, 600_000).default(72_000),
  // Lingering close (plugins/http/lingering-close.ts): after an answer to a request whose body
  // is still arriving, the rest is read and dropped this long and this much at most, so the
  // client reads the answer instead of a reset.
  lingering_close_ms: integer(0, 60_000).default(2000),
  lingering_close_max_mb: integer(1, 10_240).default(64),
}).refine((server) => server.headers_timeout_ms <= server.request_timeout_ms, {
  error: 'expected at most server.request_timeout_ms (the time for the whole request includes its head)',
  path: ['headers_timeout_ms'],
});

/** The schema the postgres driver uses when `storage.schema` names none. */
export const defaultPostgresSchema = 'model_gateway';

// The URL schemes each networked driver accepts, and how a config names them.
const storageUrlSchemes = {
  redis: { pattern: /^rediss?:\/\//, example: 'redis://' },
  postgres: { pattern: /^postgres(ql)?:\/\//, example: 'postgres://' },
} as const;

const storageSchema = z
  .strictObject({
    driver: z.enum(['sqlite', 'memory', 'redis', 'postgres'], { error: 'expected one of sqlite, memory, redis, postgres' }).default('sqlite'),
    path: z.string({ error: 'expected a file path' }).min(1).optional(),
    url: z.string({ error: 'expected a redis:// or postgres:// URL' }).min(1).optional(),
    key_prefix: z.string({ error: 'expected a string' }).default('model-gateway:'),
    // postgres only; absent means defaultPostgresSchema. Lower case, so the name means the
    // same quoted or not in psql.
    schema: z
      .string({ error: 'expected a schema name' })
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'expected a schema name of lower-case letters, digits and underscores (at most 63), e.g. model_gateway' })
      .optional(),
    data_dir: z.string({ error: 'expected a directory path' }).min(1).default('./data'),
    access_time_flush_ms: integer(100, 3_600_000).default(10_000),
    // How long a reservation's hold (and a concurrency slot) outlives an instance that stopped
    // renewing it: each instance renews its own every third of this, and sweeps expired ones.
    lease_seconds: integer(1, 3600).default(30),
  })
  .superRefine((storage, context) => {
    if (storage.driver === 'redis' || storage.driver === 'postgres') {
      const { pattern, example } = storageUrlSchemes[storage.driver];
      if (storage.url === undefined) {
        context.addIssue({ code: 'custom', path: ['url'], message: `required when driver is ${storage.driver}` });
      } else if (!pattern.test(storage.url) || !URL.canParse(storage.url)) {
        context.addIssue({ code: 'custom', path: ['url'], message: `expected a ${example} URL` });
      }
    }
    // `path`, `url` and `schema` of another driver are kept, unused, so switching `driver` in
    // a file is one edit; `config check` and `start` warn about them (unusedStorageKeys).
  });

/**
 * The `storage` keys the chosen driver does not use (`path` is sqlite's, `url` redis's and
 * postgres's, `schema` postgres's), each as a warning naming its driver: left from a switch of
 * `driver`, they are ignored rather than refused.
 */
export function unusedStorageKeys(storage: z.output<typeof storageSchema>): { path: string; message: string }[] {
  const unused: { path: string; message: string }[] = [];
  const ignored = (key: string, users: string) => unused.push({ path: `storage.${key}`, message: `ignored with driver ${storage.driver}: only ${users} use${users.includes(' and ') ? '' : 's'} it` });
  if (storage.url !== undefined && storage.driver !== 'redis' && storage.driver !== 'postgres') ignored('url', 'redis and postgres');
  if (storage.path !== undefined && storage.driver !== 'sqlite') ignored('path', 'sqlite');
  if (storage.schema !== undefined && storage.driver !== 'postgres') ignored('schema', 'postgres');
  return unused;
}

const mediaSchema = z.strictObject({
  max_bytes: integer(1, 1024 * 1024 * 1024).default(20 * 1024 * 1024),
  timeout_ms: integer(1, 600_000).default(15_000),
  allow_private_networks: boolean.default(false),
  allow_hosts: z.array(z.string({ error: 'expected a host name, address or CIDR range' }).min(1), { error: 'expected a list of hosts' }).default([]),
  // URLs a client gives for the upstream to fetch get the same address checks; an operator
  // whose upstreams sit outside any private network may forward them unchecked.
  check_vendor_fetched_urls: boolean.default(true),
});

// Failed authentications counted in the store (core/security/auth-failure-limiter.ts); 0 turns a counter off.
const authFailuresSchema = z.strictObject({
  max_per_address: integer(0, 1_000_000).default(20),
  max_per_key_prefix: integer(0, 1_000_000).default(20),
  window_ms: integer(100, 3_600_000).default(60_000),
});

const securitySchema = z.strictObject({
  media: mediaSchema.default(mediaSchema.parse({})),
  auth_failures: authFailuresSchema.default(authFailuresSchema.parse({})),
  encryption_key: z
    .string({ error: 'expected a string' })
    .refine((key) => key === '' || key.length >= 32, { error: 'expected at least 32 characters (or empty to generate one)' })
    .default(''),
  key_reveal_per_minute: integer(1, 100_000).default(30),
  max_tokens_per_user: integer(1, 1_000_000).default(1000),
});

/** The path of the gateway's OpenID Connect callback route; `auth.oidc.redirect_url` must end with it. */
export const oidcCallbackPath = '/api/sign-in/oidc/callback';

const loopbackHost = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

// `claim` (admin when its value is true) or `claim=value` (admin when it equals value, or is a
// list that holds it); a dotted name reaches into nested claims (`realm_access.roles=admin`).
const adminClaim = z
  .string({ error: 'expected a claim name, or claim=value' })
  .regex(/^([^=\s]+(=.+)?)?$/, { error: 'expected a claim name (admin when the claim is true) or claim=value (admin when the claim is value or a list holding it), e.g. groups=gateway-admins' })
  .default('');

// Console sign-in with an OpenID provider (plugins/sign-in/); absent: only login tokens.
const oidcSchema = z
  .strictObject({
    issuer: httpUrl.refine((value) => !/[?#]/.test(value), { error: 'expected the issuer URL without query or fragment, e.g. https://accounts.example.com' }),
    client_id: z.string({ error: 'expected the client id the provider registered the gateway under' }).min(1, { error: 'must not be empty' }),
    client_secret: z.string({ error: 'expected a string' }).default(''),
    redirect_url: httpUrl.refine((value) => URL.canParse(value) && new URL(value).pathname.endsWith(oidcCallbackPath) && !/[?#]/.test(value), {
      error: `expected the gateway's public address followed by ${oidcCallbackPath}, e.g. https://gateway.example.com${oidcCallbackPath}`,
    }),
    admin_claim: adminClaim,
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, { error: 'expected a scope name' }), { error: 'expected a list of scopes' })
      .refine((scopes) => scopes.includes('openid'), { error: 'expected a list that holds openid' })
      .default(['openid', 'profile', 'email']),
    display_name: z.string({ error: 'expected a string' }).min(1).max(60).default('SSO'),
    session_hours: integer(1, 24 * 90).default(12),
  })
  .superRefine((oidc, context) => {
    // Plain http leaves codes and tokens readable on the wire; only a provider on this machine may use it.
    for (const key of ['issuer', 'redirect_url'] as const) {
      if (!URL.canParse(oidc[key])) continue;
      const url = new URL(oidc[key]);
      if (url.protocol === 'http:' && !loopbackHost.test(url.hostname)) {
        context.addIssue({ code: 'custom', path: [key], message: 'expected an https URL (plain http is accepted on localhost, 127.0.0.1 and [::1] only)' });
      }
    }
  });

const authSchema = z.strictObject({ oidc: oidcSchema.optional() });

/** The most quota units a budget may allow in one period: the token API's largest quota. */
export const maximumBudgetUnits = 500_000_000_000_000;

const budgetLimit = integer(0, maximumBudgetUnits).optional();

const budgetsSchema = z.strictObject({
  // The periods' boundaries (midnight, Monday, the 1st) are local times of this IANA zone.
  time_zone: z
    .string({ error: 'expected an IANA time zone such as UTC or Europe/Berlin' })
    .refine(
      (zone) => {
        try {
          assertTimeZone(zone);
          return true;
        } catch {
          return false;
        }
      },
      { error: 'expected an IANA time zone this runtime knows, such as UTC or Europe/Berlin' },
    )
    .default('UTC'),
});

const userSchema = z.strictObject({
  id: integer(1),
  // A user's budgets; when any is set here, the config is their truth (the user API's are replaced at start).
  budget_daily: budgetLimit,
  budget_weekly: budgetLimit,
  budget_monthly: budgetLimit,
  budget_mode: z.enum(budgetModes, { error: 'expected hard or soft' }).optional(),
  username: z
    .string({ error: 'expected a string' })
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: 'expected 1 to 64 letters, digits, ".", "_" or "-"' }),
  login_token: z.string({ error: 'expected a string' }).default(''),
  // Explicit, and `user` unless said: an entry added for a colleague must not make them an admin.
  role: z.enum(userRoles, { error: 'expected admin or user' }).default('user'),
});

const groupSchema = z.strictObject({ ratio: nonNegativeNumber.default(1) });

/** One price: the keys of a `pricing` entry (and of a price catalog entry's `price`). */
export const priceSchema = z
  .strictObject({
    input_per_mtok: nonNegativeNumber.optional(),
    output_per_mtok: nonNegativeNumber.optional(),
    cached_input_per_mtok: nonNegativeNumber.optional(),
    per_call: nonNegativeNumber.optional(),
    per_image: nonNegativeNumber.optional(),
    per_second: nonNegativeNumber.optional(),
    resolution_multipliers: z.record(z.string(), nonNegativeNumber).optional(),
    per_1k_chars: nonNegativeNumber.optional(),
    per_minute: nonNegativeNumber.optional(),
  })
  .refine((price) => Object.keys(price).some((key) => key !== 'resolution_multipliers'), {
    error: 'expected at least one price key',
  });

const timeoutsSchema = z.strictObject({
  connect_ms: integer(1).default(10_000),
  first_byte_ms: integer(1).default(120_000),
  idle_ms: integer(1).default(60_000),
  total_ms: integer(1).default(600_000),
});

const routingSchema = z.strictObject({
  max_attempts: integer(1, 20).default(3),
  circuit_breaker: z
    .strictObject({ failure_threshold: integer(1, 1000).default(5), cooldown_ms: integer(1, 3_600_000).default(30_000) })
    .default({ failure_threshold: 5, cooldown_ms: 30_000 }),
  affinity: z
    .strictObject({
      // OpenAI keeps stored responses for 30 days, so a conversation can be continued that long.
      ttl_ms: integer(1000, 365 * 24 * 3_600_000).default(30 * 24 * 3_600_000),
      on_channel_down: z.enum(['fail', 'failover'], { error: 'expected fail or failover' }).default('failover'),
    })
    .default({ ttl_ms: 30 * 24 * 3_600_000, on_channel_down: 'failover' }),
});

const billingSchema = z.strictObject({
  allow_free_models: boolean.default(false),
  estimated_output_tokens: integer(1, 10_000_000).default(4096),
  // The shipped price catalog (config/price-catalog.yaml) prices what `pricing` does not;
  // false leaves `pricing` the only source of prices.
  price_catalog: boolean.default(true),
});

const audioSchema = z.strictObject({
  // OpenAI's own limit for transcription uploads.
  max_upload_mb: integer(1, 1024).default(25),
});

const tasksSchema = z.strictObject({
  // Spec part 2: a task and its URL are valid for about 24 hours.
  ttl_ms: integer(60_000, 30 * 24 * 3_600_000).default(24 * 3_600_000),
  min_poll_interval_ms: integer(0, 600_000).default(2_000),
  background_poll_ms: integer(100, 3_600_000).default(15_000),
  max_download_mb: integer(1, 4096).default(200),
});

const assetsSchema = z.strictObject({
  // The asset routes run as this model's operations, so its channels, groups, model limits
  // and price (asset operations cost nothing) decide who may use the library and where.
  model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }).default('sdx-2-0'),
});

const tracingSchema = z.strictObject({
  enabled: boolean.default(false),
  endpoint: httpUrl.default('http://127.0.0.1:4318/v1/traces'),
  service_name: z.string({ error: 'expected a service name' }).min(1, { error: 'must not be empty' }).default('model-gateway'),
  sample_ratio: z.number({ error: 'expected a number from 0 to 1' }).min(0, { error: 'expected at least 0' }).max(1, { error: 'expected at most 1' }).default(1),
});

const observabilitySchema = z.strictObject({ tracing: tracingSchema.default(tracingSchema.parse({})) });

const logsSchema = z.strictObject({
  // The usage log: one record per model request (core/usage/usage-log.ts).
  enabled: boolean.default(true),
  retention_days: integer(1, 36_500).default(30),
});

const auditSchema = z.strictObject({
  // The audit trail of admin changes (core/audit/audit-trail.ts): how long its records are kept.
  retention_days: integer(1, 36_500).default(180),
});

const streamingSchema = z.strictObject({
  keepalive_ms: integer(100, 600_000).default(15_000),
  max_event_bytes: integer(1024, 1024 * 1024 * 1024).default(32 * 1024 * 1024),
});

/** One set of rate limits; 0 (the default) leaves that measure unlimited. */
const rateLimitSchema = z.strictObject({
  requests_per_minute: integer(0, 1_000_000_000).default(0),
  tokens_per_minute: integer(0, 1_000_000_000_000).default(0),
  // Requests in flight at once, counted across every instance on the store.
  max_concurrent: integer(0, 1_000_000).default(0),
});

const rateLimitsSchema = z.strictObject({
  // Each API key on its own.
  tokens: rateLimitSchema.default(rateLimitSchema.parse({})),
  // Every API key of a group together.
  groups: z.record(name, rateLimitSchema, { error: 'expected a mapping of group name to limits' }).default({}),
});

/**
 * The fields of one `providers` entry, a channel, before the rule between them
 * ({@link providerEntrySchema} adds it): the channel API's updates name these keys.
 */
export const providerFields = z.strictObject({
  name,
  plugin: z.string({ error: 'expected a plugin name, path or package' }).min(1, { error: 'must not be empty' }),
  base_url: httpUrl,
  api_key: z.string({ error: 'expected a string' }).min(1, { error: 'must not be empty' }).optional(),
  api_keys: z
    .array(z.string({ error: 'expected a key' }).min(1, { error: 'must not be empty' }), { error: 'expected a list of keys' })
    .min(1, { error: 'expected at least one key' })
    .optional(),
  models: z.array(z.string().min(1), { error: 'expected a list of model names or patterns' }).min(1, {
    error: 'expected at least one model',
  }),
  model_map: z.record(z.string(), z.string({ error: 'expected a model name' }), { error: 'expected a mapping of client model to upstream model' }).default({}),
  groups: z.array(name).min(1).default(['default']),
  priority: integer(-1_000_000, 1_000_000).default(0),
  weight: integer(0, 1_000_000).default(1),
  timeouts: timeoutsSchema.default(timeoutsSchema.parse({})),
  // The most a non-stream answer may hold, in MiB; without it the plugin's default, else 64.
  max_response_mb: integer(1, 4096).optional(),
  options: z.record(z.string(), z.unknown(), { error: 'expected a mapping of plugin options' }).default({}),
});

const oneKeyField = (provider: { api_key?: unknown; api_keys?: unknown }) => !(provider.api_key !== undefined && provider.api_keys !== undefined);
const oneKeyFieldIssue = { error: 'set api_key or api_keys, not both', path: ['api_keys'] };

/** One `providers` entry, a channel: what the config file and the channel API (`POST /api/channel/`) both take. */
export const providerEntrySchema = providerFields.refine(oneKeyField, oneKeyFieldIssue);

/** {@link providerEntrySchema} with more fields beside the entry's (the channel API's `enabled`). */
export const providerEntryWith = <Extra extends z.ZodRawShape>(extra: Extra, params?: Parameters<typeof z.strictObject>[1]) =>
  z.strictObject({ ...providerFields.shape, ...extra }, params).refine(oneKeyField, oneKeyFieldIssue);

/** The operator's config file, as DESIGN.md §5 lays it out. Unknown keys are errors. */
export const gatewayConfigSchema = z
  .strictObject({
    server: serverSchema.default(serverSchema.parse({})),
    storage: storageSchema.default(storageSchema.parse({})),
    security: securitySchema.default(securitySchema.parse({})),
    auth: authSchema.default({}),
    users: z.array(userSchema).default([]),
    budgets: budgetsSchema.default(budgetsSchema.parse({})),
    groups: z.record(name, groupSchema).default({ default: { ratio: 1 } }),
    auto_groups: z.array(name).default([]),
    pricing: emptyAs({}, z.record(z.string(), priceSchema)).default({}),
    billing: billingSchema.default(billingSchema.parse({})),
    routing: routingSchema.default(routingSchema.parse({})),
    streaming: streamingSchema.default(streamingSchema.parse({})),
    audio: audioSchema.default(audioSchema.parse({})),
    tasks: tasksSchema.default(tasksSchema.parse({})),
    observability: observabilitySchema.default(observabilitySchema.parse({})),
    logs: logsSchema.default(logsSchema.parse({})),
    audit: auditSchema.default(auditSchema.parse({})),
    assets: assetsSchema.default(assetsSchema.parse({})),
    rate_limits: rateLimitsSchema.default(rateLimitsSchema.parse({})),
    providers: emptyAs([], z.array(providerEntrySchema)).default([]),
    // Other names clients may call a model by: alias → model (or another alias), resolved at start.
    aliases: emptyAs({}, z.record(z.string().min(1), z.string({ error: 'expected the model this alias stands for' }).min(1, { error: 'must not be empty' }), { error: 'expected a mapping of alias to model' })).default({}),
    // The models to try, in order, when a model's channels all fail with a retryable error.
    fallbacks: emptyAs(
      {},
      z.record(
        z.string().min(1),
        z.array(z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }), { error: 'expected a list of models to fall back to' }).min(1, { error: 'expected at least one model' }),
        { error: 'expected a mapping of model to the models to fall back to' },
      ),
    ).default({}),
    // What else moves a request on to its next fallback model, besides a retryable failure:
    // `content_filter`, the upstream's refusal (a content-filter stop before any content).
    fallbacks_on: emptyAs(
      [],
      z.array(z.enum(['content_filter'], { error: 'expected content_filter (a refusal before any content); a retryable failure falls back always' }), {
        error: 'expected a list of reasons to try the next fallback model for',
      }),
    ).default([]),
    // The format translators to load, in the order that decides between two able to serve one
    // channel: built-in names, paths or packages; left out, every built-in one; a bare key, none
    // (core/loader/load-translators.ts).
    translators: emptyAs([], z.array(z.string({ error: 'expected a translator name, path or package' }).min(1, { error: 'must not be empty' }), { error: 'expected a list of translators' })).optional(),
  })
  .superRefine((config, context) => {
    const groupNames = new Set(Object.keys(config.groups));
    if (!groupNames.has('default')) {
      context.addIssue({ code: 'custom', path: ['groups'], message: 'expected a "default" group, used by tokens that name no group' });
    }
    if (groupNames.has('auto')) {
      context.addIssue({ code: 'custom', path: ['groups', 'auto'], message: '"auto" is reserved for tokens that walk auto_groups' });
    }
    config.auto_groups.forEach((group, index) => {
      if (!groupNames.has(group)) {
        context.addIssue({ code: 'custom', path: ['auto_groups', index], message: `unknown group "${group}"; define it under groups` });
      }
    });
    for (const group of Object.keys(config.rate_limits.groups)) {
      if (!groupNames.has(group)) {
        context.addIssue({ code: 'custom', path: ['rate_limits', 'groups', group], message: `unknown group "${group}"; define it under groups` });
      }
    }
    const seenProviders = new Set<string>();
    config.providers.forEach((provider, index) => {
      if (seenProviders.has(provider.name)) {
        context.addIssue({ code: 'custom', path: ['providers', index, 'name'], message: `duplicate provider name "${provider.name}"` });
      }
      seenProviders.add(provider.name);
      provider.groups.forEach((group, groupIndex) => {
        if (!groupNames.has(group)) {
          context.addIssue({
            code: 'custom',
            path: ['providers', index, 'groups', groupIndex],
            message: `unknown group "${group}"; define it under groups`,
          });
        }
      });
    });
    const seenIds = new Set<number>();
    const seenNames = new Set<string>();
    config.users.forEach((user, index) => {
      if (seenIds.has(user.id)) context.addIssue({ code: 'custom', path: ['users', index, 'id'], message: `duplicate user id ${user.id}` });
      if (seenNames.has(user.username)) {
        context.addIssue({ code: 'custom', path: ['users', index, 'username'], message: `duplicate username "${user.username}"` });
      }
      seenIds.add(user.id);
      seenNames.add(user.username);
    });
    for (const problem of aliasProblems(config)) context.addIssue({ code: 'custom', path: ['aliases', problem.alias], message: problem.message });
    for (const problem of fallbackProblems(config)) context.addIssue({ code: 'custom', path: ['fallbacks', ...problem.path], message: problem.message });
    if ((config.storage.driver === 'redis' || config.storage.driver === 'postgres') && config.security.encryption_key === '') {
      context.addIssue({
        code: 'custom',
        path: ['security', 'encryption_key'],
        message: `required with the ${config.storage.driver} driver, because every gateway instance must share it`,
      });
    }
  });

/** The validated config every part of the gateway reads. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
/** One channel entry under `providers`. */
export type ProviderConfig = GatewayConfig['providers'][number];
/** The `auth.oidc` section, when console sign-in with an OpenID provider is configured. */
export type OidcConfig = NonNullable<GatewayConfig['auth']['oidc']>;
/** The `rate_limits` section. */
export type RateLimitsConfig = GatewayConfig['rate_limits'];
/** One price entry under `pricing`. */
export type PriceConfig = GatewayConfig['pricing'][string];
