import type { UserRole } from '../../core/users/user-repository.js';

/** The claims an identity provider gave for a person: the ID token's, with its userinfo's added. */
export type Claims = Readonly<Record<string, unknown>>;

/** A claim's value by its dotted name: `groups`, or `realm_access.roles` for a claim nested in an object. */
function claimAt(claims: Claims, name: string): unknown {
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The role `auth.oidc.admin_claim` gives claims. The setting reads:
 * - empty: nobody is an admin by their claims (every signed-in person is a `user`);
 * - `claim`: admin when the claim is `true` (the boolean, or the string `"true"`);
 * - `claim=value`: admin when the claim is `value` (a string, number or boolean spelled so),
 *   or a list that holds it (`groups=gateway-admins` for `"groups": ["staff", "gateway-admins"]`).
 * A dotted name reaches into nested objects. Anything else, a missing claim included, is a `user`.
 */
export function roleFromClaims(adminClaim: string, claims: Claims): UserRole {
  if (adminClaim === '') return 'user';
  const separator = adminClaim.indexOf('=');
  const name = separator === -1 ? adminClaim : adminClaim.slice(0, separator);
  const value = claimAt(claims, name);
  if (separator === -1) return value === true || value === 'true' ? 'admin' : 'user';
  const wanted = adminClaim.slice(separator + 1);
  const matches = (item: unknown) => (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') && String(item) === wanted;
  return (Array.isArray(value) ? value.some(matches) : matches(value)) ? 'admin' : 'user';
}

/** The name a new user gets: `preferred_username`, else `email`, else `name`, else the subject. */
export function usernameClaim(claims: Claims, subject: string): string {
  for (const name of ['preferred_username', 'email', 'name']) {
    const value = claims[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return subject;
}
