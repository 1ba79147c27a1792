import t from 'tap';
import { roleFromClaims, usernameClaim } from '../../../plugins/sign-in/identity-claims.js';
import { usernameFrom } from '../../../core/users/user-service.js';

t.test('an empty admin_claim makes nobody an admin', async (t) => {
  t.equal(roleFromClaims('', { admin: true, groups: ['admins'] }), 'user');
});

t.test('a bare claim name makes an admin of a claim that is true, the boolean or the string', async (t) => {
  t.equal(roleFromClaims('gateway_admin', { gateway_admin: true }), 'admin');
  t.equal(roleFromClaims('gateway_admin', { gateway_admin: 'true' }), 'admin');
  t.equal(roleFromClaims('gateway_admin', { gateway_admin: false }), 'user');
  t.equal(roleFromClaims('gateway_admin', { gateway_admin: 'yes' }), 'user', 'only true is true');
  t.equal(roleFromClaims('gateway_admin', {}), 'user', 'a missing claim is a user');
});

t.test('claim=value makes an admin of a claim with that value, or a list holding it', async (t) => {
  t.equal(roleFromClaims('groups=gateway-admins', { groups: ['staff', 'gateway-admins'] }), 'admin');
  t.equal(roleFromClaims('groups=gateway-admins', { groups: ['staff'] }), 'user');
  t.equal(roleFromClaims('groups=gateway-admins', { groups: 'gateway-admins' }), 'admin', 'a single value');
  t.equal(roleFromClaims('groups=gateway-admins', { groups: 'gateway-admins-2' }), 'user', 'equal, not a prefix');
  t.equal(roleFromClaims('level=3', { level: 3 }), 'admin', 'a number spelled so');
  t.equal(roleFromClaims('groups=gateway-admins', { groups: [{ name: 'gateway-admins' }] }), 'user', 'objects in the list are not values');
});

t.test('a dotted claim name reaches into nested claims', async (t) => {
  t.equal(roleFromClaims('realm_access.roles=admin', { realm_access: { roles: ['offline_access', 'admin'] } }), 'admin');
  t.equal(roleFromClaims('realm_access.roles=admin', { realm_access: ['admin'] }), 'user');
  t.equal(roleFromClaims('realm_access.roles=admin', { 'realm_access.roles': ['admin'] }), 'user', 'the dots are a path, not part of a name');
});

t.test("a new user is named after preferred_username, else the email, else the name, else the subject, made a valid username", async (t) => {
  t.equal(usernameClaim({ preferred_username: 'grace', email: 'g@example.com' }, 'sub-1'), 'grace');
  t.equal(usernameClaim({ preferred_username: ' ', email: 'g@example.com' }, 'sub-1'), 'g@example.com');
  t.equal(usernameClaim({ name: 'Grace Hopper' }, 'sub-1'), 'Grace Hopper');
  t.equal(usernameClaim({}, 'sub-1'), 'sub-1');
  t.equal(usernameFrom('g@example.com'), 'g-example.com');
  t.equal(usernameFrom('Grace Hopper'), 'Grace-Hopper');
  t.equal(usernameFrom('@@@'), 'user');
  t.equal(usernameFrom('x'.repeat(80)).length, 64);
});
