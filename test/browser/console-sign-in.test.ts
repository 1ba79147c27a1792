import type { Page } from 'playwright-core';
import t from 'tap';
import { startTestIdentityProvider, testClient } from '../fakes/oidc/test-identity-provider.js';
import { freePort } from '../helpers/redis-server-process.js';
import { keepScreenshot, launchChromium, openContext, startConsoleScene, unlabelledControls, type WatchedContext } from './console-scene.js';

// Single sign-on for the console in Debian's headless Chromium, against a real OpenID provider
// (oidc-provider, its development login and consent pages) on a loopback port: the steps in
// order, as people use it. grace is in the provider's gateway-admins group, hal is not.

// The provider registers the gateway's callback before the gateway starts, so its port is chosen first.
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const provider = await startTestIdentityProvider(t, `${origin}/api/sign-in/oidc/callback`, {
  grace: { preferred_username: 'grace', email: 'grace@example.com', groups: ['staff', 'gateway-admins'] },
  hal: { preferred_username: 'hal', email: 'hal@example.com', groups: ['staff'] },
});
const scene = await startConsoleScene(t, {
  port,
  overrides: {
    auth: {
      oidc: {
        issuer: provider.issuer,
        client_id: testClient.id,
        client_secret: testClient.secret,
        redirect_url: `${origin}/api/sign-in/oidc/callback`,
        admin_claim: 'groups=gateway-admins',
        scopes: ['openid', 'profile', 'email', 'groups'],
        display_name: 'Example SSO',
      },
    },
  },
});
const browser = await launchChromium(t);
const contexts: WatchedContext[] = [];

/** A browser of its own (cookies, the provider's session), whose provider pages get no web font from outside. */
async function person(): Promise<WatchedContext> {
  const opened = await openContext(browser, scene.origin);
  // The development pages import a Google font; the test talks to nothing but its own servers.
  await opened.context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
  contexts.push(opened);
  return opened;
}

const asUser = (loginToken: string, path: string, method = 'GET') => fetch(`${scene.origin}${path}`, { method, headers: { authorization: `Bearer ${loginToken}` } });
const storedToken = (page: Page) => page.evaluate<string | null>("sessionStorage.getItem('model-gateway.login-token')");

/** From the console's sign-in page through the provider's login and consent pages as `login`. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.goto('/console/');
  await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Console pages' }).getByRole('link').allTextContents();

const { page: gracePage } = await person();
const { page: halPage } = await person();

t.test('the sign-in page offers the identity provider beside the login token', async (t) => {
  await gracePage.goto('/console/');
  const link = gracePage.getByRole('link', { name: 'Sign in with Example SSO' });
  await link.waitFor();
  t.equal(await link.getAttribute('href'), '/api/sign-in/oidc', 'a plain link to the start of the sign-in');
  t.ok(await gracePage.getByLabel('Login token').isVisible(), 'the login token field is still there');
  t.same(await unlabelledControls(gracePage), [], 'every form control has a label');
  await keepScreenshot(gracePage, 'sign-in-with-sso');
});

t.test('signing in at the provider lands on the console as that person, an admin by the admin claim, with the token out of the address', async (t) => {
  await signInAtProvider(gracePage, 'grace');
  await gracePage.getByRole('heading', { name: 'Overview' }).waitFor();
  t.match(await gracePage.locator('.who').textContent(), /grace\s*admin/, 'the page names grace, an admin');
  t.same(await navLinks(gracePage), ['Overview', 'Tokens', 'Usage', 'Playground', 'Models', 'Channels', 'Users', 'Audit'], 'with the admin pages');
  const address = new URL(gracePage.url());
  t.equal(`${address.pathname}${address.search}${address.hash}`, '/console/', 'the login token is gone from the address');
  t.notOk((await gracePage.evaluate<string>('location.href')).includes('login_token'), 'and from what a script reads of it');
  const token = (await storedToken(gracePage)) ?? '';
  t.match(token, /^mgu_[0-9A-Za-z]{43}$/, 'the login token is kept in sessionStorage, as a pasted one is');
  t.match(((await (await asUser(token, '/api/user/self')).json()) as { data: unknown }).data, { username: 'grace', role: 'admin' }, 'and it is grace’s');
  t.same(
    (await gracePage.context().cookies()).filter((cookie) => cookie.domain === '127.0.0.1' && cookie.name === 'model_gateway_sign_in'),
    [],
    "the sign-in's browser binding is cleared once used",
  );
  await gracePage.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Users', exact: true }).click();
  await gracePage.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  await gracePage.locator('tr[data-user="grace"]').waitFor();
  t.pass('the Users page lists grace, created at her first sign-in');
  await keepScreenshot(gracePage, 'signed-in-with-sso');
});

t.test('a person the claims make a user sees no admin page', async (t) => {
  await signInAtProvider(halPage, 'hal');
  await halPage.getByRole('heading', { name: 'Overview' }).waitFor();
  t.match(await halPage.locator('.who').textContent(), /hal\s*user/, 'the page names hal, a user');
  t.same(await navLinks(halPage), ['Overview', 'Tokens', 'Usage', 'Playground', 'Models'], 'no Channels or Users link');
  await halPage.goto('/console/users');
  await halPage.getByText('This page is for admins').waitFor();
  t.equal((await asUser((await storedToken(halPage)) ?? '', '/api/user/')).status, 403, 'and the user API refuses him');
});

t.test('a user an admin disabled is refused at the next sign-in with a page that says so', async (t) => {
  await gracePage.reload();
  const row = gracePage.locator('tr[data-user="hal"]');
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('disabled', { exact: true }).waitFor();
  await halPage.goto('/console/');
  await halPage.getByText('the user this login token belongs to is disabled').waitFor();
  t.pass('his session is refused at once: the console is back at the sign-in');
  await halPage.getByRole('link', { name: 'Sign in with Example SSO' }).click();
  // The provider remembers hal and his consent: he comes straight back to the gateway, which refuses him.
  await halPage.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
  t.match(await halPage.getByRole('alert').textContent(), /the gateway's user "hal" is disabled, so it may not sign in; an admin can enable it again on the Users page/);
  t.match(await halPage.locator('code').textContent(), 'user_disabled');
  await keepScreenshot(halPage, 'sso-user-disabled');
  await halPage.getByRole('link', { name: 'Back to the sign-in page' }).click();
  await halPage.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  t.equal(await storedToken(halPage), null, 'no login token was handed out');
});

t.test('signing out ends the single sign-on session: its login token no longer works', async (t) => {
  const token = (await storedToken(gracePage)) ?? '';
  t.equal((await asUser(token, '/api/user/self')).status, 200, 'signed in, the token works');
  await gracePage.getByRole('button', { name: 'Sign out' }).click();
  await gracePage.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  t.equal(await storedToken(gracePage), null, 'the console forgot it');
  const refused = await asUser(token, '/api/user/self');
  t.equal(refused.status, 401, 'and the gateway refuses it');
});

t.test('declining at the provider shows why on a page that leads back to the sign-in', async (t) => {
  const { page } = await person();
  await page.goto('/console/');
  await page.getByRole('link', { name: 'Sign in with Example SSO' }).click();
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
  t.match(await page.getByRole('alert').textContent(), /the identity provider refused the sign-in: access_denied/);
  await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
  await page.getByRole('link', { name: 'Sign in with Example SSO' }).waitFor();
  t.pass('back on the sign-in page');
});

t.test('no page broke the Content-Security-Policy or threw a script error', async (t) => {
  for (const [index, opened] of contexts.entries()) {
    t.same(opened.policyViolations, [], `context ${index + 1}: no CSP violation`);
    t.same(opened.scriptErrors, [], `context ${index + 1}: no script error`);
  }
});
