import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import type { Test } from 'tap';

/** The gateway's client at the test identity provider. */
export const testClient = { id: 'model-gateway', secret: 'oidc-test-client-secret-0123456789' };

/** An identity provider of the tests: a real OpenID provider (oidc-provider 8) on a loopback port. */
export interface TestIdentityProvider {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  /**
   * The people who may sign in, by login (their subject): the claims each one has beyond `sub`.
   * A test may change them between sign-ins.
   */
  accounts: Map<string, Record<string, unknown>>;
}

/**
 * Starts oidc-provider on an ephemeral loopback port, closed when the test ends, with one
 * confidential client (`testClient`, HTTP Basic at the token endpoint) whose only redirect URI
 * is `redirectUri`. PKCE with S256 is required of every authorization request. The people come
 * from `accounts`; the provider's development interactions let a browser sign in (any
 * password) and consent. `groups` is a scope of its own whose claim is `groups`. Its cookies are
 * SameSite=Lax: the default None needs Secure, which a browser refuses to set over plain http.
 */
export async function startTestIdentityProvider(t: Test, redirectUri: string, accounts: Record<string, Record<string, unknown>>): Promise<TestIdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the identity provider is not listening on a port');
  const issuer = `http://127.0.0.1:${address.port}`;
  const people = new Map(Object.entries(accounts));
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: testClient.id,
        client_secret: testClient.secret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email', 'email_verified'], groups: ['groups'] },
    findAccount: (_context, id) => {
      if (!people.has(id)) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...people.get(id) }) };
    },
    jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')], long: { signed: true, sameSite: 'lax' }, short: { signed: true, sameSite: 'lax' } },
    features: { devInteractions: { enabled: true } },
    // Set, so the provider does not note on every run that its defaults were used.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  server.on('request', provider.callback());
  return { issuer, accounts: people };
}
