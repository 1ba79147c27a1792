// oidc-provider 8 ships no types (and @types/oidc-provider is not a dependency): the little of
// it the test identity provider uses, typed as the package's README documents it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** What `findAccount` answers for an account id: the account, and its claims for a use and scope. */
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    findAccount?: (context: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    scopes?: string[];
    pkce?: { required?: () => boolean; methods?: string[] };
    cookies?: { keys?: string[]; long?: Record<string, unknown>; short?: Record<string, unknown> };
    jwks?: { keys: Record<string, unknown>[] };
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    /** A Node request listener serving every endpoint of the provider. */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
