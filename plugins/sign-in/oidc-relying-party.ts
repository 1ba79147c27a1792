import * as openid from 'openid-client';
import type { OidcConfig } from '../../core/config/config-schema.js';
import { identityProviderFailed, signInCallbackInvalid, signInRefused } from '../../core/errors/error-codes.js';
import { scrubSecrets } from '../../core/security/secret-values.js';
import type { Claims } from './identity-claims.js';

/** What the gateway keeps of a started sign-in until its callback: the checks the callback needs. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  /** The PKCE code verifier; only its S256 challenge went to the provider. */
  codeVerifier: string;
}

/** The person a completed sign-in names. */
export interface SignedInIdentity {
  /** The provider's issuer identifier, as its discovery document states it. */
  issuer: string;
  subject: string;
  /** The ID token's claims, with the userinfo endpoint's added (the ID token's win). */
  claims: Claims;
}

// The provider's own text reaches a page a person reads: bounded, and without any secret.
const providerText = (text: string | undefined) => scrubSecrets(text ?? '').slice(0, 300);

/** The reason an error of a call to the provider gives, in words a person (or the operator) can act on. */
function reasonOf(error: unknown): string {
  if (error instanceof openid.ResponseBodyError) return `it answered ${error.status} ${providerText(error.error)}${error.error_description === undefined ? '' : ` (${providerText(error.error_description)})`}`;
  if (error instanceof Error) {
    // fetch hides the network error (ECONNREFUSED, ENOTFOUND, a timeout) in its cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return providerText(`${error.message}${cause}`);
  }
  return 'it failed in an unknown way';
}

/**
 * The gateway as an OpenID Connect relying party (openid-client): the authorization code flow
 * with PKCE (S256), a state and a nonce. The provider's configuration is discovered from
 * `<issuer>/.well-known/openid-configuration` at the first sign-in, not at start, so a provider
 * that is down does not keep the gateway from starting; a failed discovery is tried again at the
 * next sign-in. Plain http is allowed only for a loopback issuer (the config refuses any other).
 */
export class OidcRelyingParty {
  readonly #settings: OidcConfig;
  #configuration: Promise<openid.Configuration> | undefined;

  constructor(settings: OidcConfig) {
    this.#settings = settings;
  }

  /** The provider's address to send the browser to, and the checks to keep for the callback. */
  async authorizationUrl(): Promise<{ url: URL; checks: AuthorizationChecks }> {
    const configuration = await this.#configured();
    const checks: AuthorizationChecks = { state: openid.randomState(), nonce: openid.randomNonce(), codeVerifier: openid.randomPKCECodeVerifier() };
    const url = openid.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#settings.redirect_url,
      scope: this.#settings.scopes.join(' '),
      response_type: 'code',
      code_challenge: await openid.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url, checks };
  }

  /**
   * Completes a sign-in from the callback's query: exchanges the code (with the PKCE verifier)
   * at the token endpoint, validates the ID token (signature, issuer, audience, expiry, nonce)
   * and reads the userinfo endpoint when the provider has one. The callback URL is built on the
   * configured `redirect_url`, never on the request's Host.
   */
  async complete(query: URLSearchParams, checks: AuthorizationChecks): Promise<SignedInIdentity> {
    const configuration = await this.#configured();
    const callback = new URL(this.#settings.redirect_url);
    callback.search = query.toString();
    let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
    try {
      tokens = await openid.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof openid.AuthorizationResponseError) {
        throw signInRefused(`${providerText(error.error)}${error.error_description === undefined ? '' : ` (${providerText(error.error_description)})`}`);
      }
      // The callback's own fault, not the provider's: a code replayed, too old, or made up.
      if (error instanceof openid.ResponseBodyError && error.error === 'invalid_grant') {
        throw signInCallbackInvalid(`the identity provider did not accept the callback's code (${reasonOf(error)}): it was already used, has expired, or was not issued to this gateway`);
      }
      throw identityProviderFailed(`the sign-in could not be completed with the identity provider: ${reasonOf(error)}; sign in again, and if it keeps failing ask the operator to check auth.oidc`, error);
    }
    const idToken = tokens.claims();
    if (idToken === undefined) throw identityProviderFailed('the identity provider answered without an ID token; ask the operator to check that the client may use the openid scope');
    let claims: Claims = idToken;
    if (configuration.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        const userinfo = await openid.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        claims = { ...userinfo, ...idToken };
      } catch (error) {
        throw identityProviderFailed(`the identity provider's userinfo endpoint failed: ${reasonOf(error)}; sign in again`, error);
      }
    }
    return { issuer: idToken.iss, subject: idToken.sub, claims };
  }

  /** The discovered configuration, discovering it on first use (and again after a failure). */
  #configured(): Promise<openid.Configuration> {
    this.#configuration ??= this.#discover().catch((error: unknown) => {
      this.#configuration = undefined;
      throw error;
    });
    return this.#configuration;
  }

  async #discover(): Promise<openid.Configuration> {
    const { issuer, client_id, client_secret } = this.#settings;
    const insecure = new URL(issuer).protocol === 'http:' ? [openid.allowInsecureRequests] : [];
    const options = { execute: insecure, timeout: 10 };
    let configuration: openid.Configuration;
    try {
      configuration = await openid.discovery(new URL(issuer), client_id, client_secret === '' ? undefined : client_secret, authenticationFor(client_secret, undefined), options);
    } catch (error) {
      throw identityProviderFailed(`the identity provider at ${issuer} could not be reached or gave no usable OpenID configuration: ${reasonOf(error)}; try again later, or ask the operator to check auth.oidc.issuer`, error);
    }
    const supported = configuration.serverMetadata().token_endpoint_auth_methods_supported;
    if (client_secret === '' || supported === undefined || supported.includes('client_secret_basic')) return configuration;
    // A provider that takes the secret only in the body (client_secret_post).
    const rebuilt = new openid.Configuration(configuration.serverMetadata(), client_id, client_secret, authenticationFor(client_secret, supported));
    rebuilt.timeout = options.timeout;
    for (const execute of insecure) execute(rebuilt);
    return rebuilt;
  }
}

/** How the client authenticates at the token endpoint: HTTP Basic (the default of the standard), the body when only that is offered, nothing for a public client. */
function authenticationFor(secret: string, supported: readonly string[] | undefined): openid.ClientAuth {
  if (secret === '') return openid.None();
  return supported !== undefined && !supported.includes('client_secret_basic') && supported.includes('client_secret_post') ? openid.ClientSecretPost(secret) : openid.ClientSecretBasic(secret);
}
