import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import {
  keepScreenshot,
  launchChromium,
  openContext,
  sidewaysOverflow,
  signIn,
  startConsoleScene,
  unlabelledControls,
  type WatchedContext,
} from './console-scene.js';
import { gxUpstreamKey } from '../helpers/gateway-scenario.js';

// The console in Debian's headless Chromium, as a person uses it: one browser, one gateway,
// the steps in order (each builds on the one before). The user `uma` runs the token, model,
// playground and usage steps; the admin `ada` the admin pages in a context of her own.

const scene = await startConsoleScene(t);
const browser = await launchChromium(t);
const contexts: WatchedContext[] = [];
const watched = async () => {
  const opened = await openContext(browser, scene.origin);
  contexts.push(opened);
  return opened;
};
const { page } = await watched();

/** What the steps learn and hand on. */
const state = { key: '', playgroundRequestId: '', outsideRequestId: '' };

/** Goes to a console page by its link in the page list, as a person does. */
async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

/** Every input, select and textarea of the page has a label. */
async function checkLabels(t: Test, page: Page, where: string): Promise<void> {
  t.same(await unlabelledControls(page), [], `${where}: every form control has a label`);
}

const tokenRow = (page: Page, name: string) => page.locator(`tr[data-token="${name}"]`);

const chat = (key: string, text: string) =>
  fetch(`${scene.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gx-2.5-pro', messages: [{ role: 'user', content: text }] }),
  });

const chatWith = (key: string, model: string, text: string) =>
  fetch(`${scene.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: text }] }),
  });

/** A fresh API key of the admin's, made through the token API (`sk-…`). */
async function adminKey(name: string): Promise<string> {
  const headers = { authorization: `Bearer ${scene.admin.loginToken}`, 'content-type': 'application/json' };
  await fetch(`${scene.origin}/api/token/`, { method: 'POST', headers, body: JSON.stringify({ name, remain_quota: 5_000_000 }) });
  const listed = (await (await fetch(`${scene.origin}/api/token/search?keyword=${name}`, { headers })).json()) as { data: { items: Array<{ id: number }> } };
  const id = listed.data.items[0]?.id;
  const revealed = (await (await fetch(`${scene.origin}/api/token/${id}/key`, { method: 'POST', headers })).json()) as { data: { key: string } };
  return `sk-${revealed.data.key}`;
}

const asUser = (loginToken: string, path: string) => fetch(`${scene.origin}${path}`, { headers: { authorization: `Bearer ${loginToken}` } });

t.test('GET / leads to the console, which refuses a wrong login token and signs in with the keyboard alone', async (t) => {
  await page.goto('/');
  t.equal(new URL(page.url()).pathname, '/console/', 'GET / is redirected to /console/');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await keepScreenshot(page, 'sign-in');
  await page.getByLabel('Login token').fill('mgu_not-a-login-token-of-this-gateway');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('the gateway refused this login token').waitFor();
  await checkLabels(t, page, 'sign-in');
  await signIn(page, scene.user.loginToken);
  t.ok(await page.getByText('uma').first().isVisible(), 'the signed-in user is named');
  t.equal(await page.evaluate<string | null>("sessionStorage.getItem('model-gateway.login-token')"), scene.user.loginToken, 'the login token is kept in sessionStorage');
  t.same(await page.context().cookies(), [], 'and no cookie is set');
});

t.test('a token created with a quota is masked in the list, and its key is revealed and copied', async (t) => {
  await open(page, 'Tokens');
  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New token' });
  await dialog.getByLabel('Name').fill('playground');
  await dialog.getByLabel('Quota in USD').fill('2');
  t.equal(await dialog.getByLabel('Quota in units').inputValue(), '1000000', 'the USD quota is shown in units too');
  await dialog.getByLabel('Never expires').uncheck();
  await dialog.getByLabel('Expires at (your local time)').fill('2031-03-04T05:06');
  await checkLabels(t, page, 'the token form');
  await keepScreenshot(page, 'token-form');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByText('Token created').waitFor();
  const row = tokenRow(page, 'playground');
  const masked = await row.locator('td.key code').textContent();
  t.match(masked, /^sk-[0-9A-Za-z]{4}\*{10}[0-9A-Za-z]{4}$/, 'the list shows the key masked');
  t.match(await row.textContent(), /\$2 \(1,000,000 units\)/, 'with the quota left in USD and units');
  t.match(await row.textContent(), /2031-03-04 05:06/, 'and the expiry picked');

  await row.getByRole('button', { name: 'Reveal key' }).click();
  await row.getByRole('button', { name: 'Copy key' }).waitFor();
  const revealed = (await row.locator('td.key code').textContent()) ?? '';
  t.match(revealed, /^sk-[0-9A-Za-z]{48}$/, 'revealed, the whole key');
  t.equal(revealed.slice(3, 7), masked?.slice(3, 7), 'the key the mask stood for');
  await row.getByRole('button', { name: 'Copy key' }).click();
  await row.getByRole('button', { name: 'Copied' }).waitFor();
  t.equal(await page.evaluate<string>('navigator.clipboard.readText()'), revealed, 'the clipboard holds the key');
  state.key = revealed;
  await keepScreenshot(page, 'tokens');
});

t.test("the token API's error is shown beside the field it names", async (t) => {
  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New token' });
  await dialog.getByLabel('Name').fill('office only');
  await dialog.getByLabel('IP allow-list').fill('10.0.0.0/8, not-an-address');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const field = dialog.locator('.field.invalid');
  await field.waitFor();
  t.equal(await field.locator('label').textContent(), 'IP allow-list', 'the field the error names is marked');
  t.match(await field.locator('.field-error').textContent(), /allow_ips: "not-an-address" is not an IP address or CIDR range/);
  t.equal(await dialog.getByLabel('IP allow-list').getAttribute('aria-invalid'), 'true', 'and read out with it');
  await dialog.getByLabel('IP allow-list').fill('10.0.0.0/8');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByText('Token created').waitFor();
  await tokenRow(page, 'office only').waitFor();
  t.pass('corrected, it is created and listed');
});

t.test('tokens are searched by name and by a masked key with %, edited, batch revealed and batch deleted', async (t) => {
  for (const name of ['batch-one', 'batch-two']) {
    const created = await fetch(`${scene.origin}/api/token/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scene.user.loginToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, unlimited_quota: true }),
    });
    t.equal(created.status, 200);
  }
  await page.reload();
  await page.getByRole('heading', { name: 'Tokens' }).waitFor();
  await page.getByLabel('Name contains').fill('batch');
  await page.getByRole('button', { name: 'Search' }).click();
  await tokenRow(page, 'playground').waitFor({ state: 'detached' });
  t.same(await page.locator('tr[data-token]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token'))), ['batch-two', 'batch-one'], 'the name search finds the two, newest first');

  await page.getByRole('button', { name: 'Show all' }).click();
  const masked = (await tokenRow(page, 'playground').locator('td.key code').textContent()) ?? '';
  await page.getByLabel('Key', { exact: true }).fill(`${masked.slice(3, 7)}%${masked.slice(-4)}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await tokenRow(page, 'batch-one').waitFor({ state: 'detached' });
  t.same(await page.locator('tr[data-token]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token'))), ['playground'], 'the masked key with % finds its token');
  await page.getByRole('button', { name: 'Show all' }).click();

  await tokenRow(page, 'office only').getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit office only' });
  t.equal(await dialog.getByLabel('IP allow-list').inputValue(), '10.0.0.0/8', 'the form holds the token as it is');
  await dialog.getByLabel('Name').fill('office');
  await dialog.getByLabel('Unlimited quota').check();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Changes saved').waitFor();
  t.match(await tokenRow(page, 'office').textContent(), /unlimited/, 'the edit is saved');

  await tokenRow(page, 'batch-one').getByLabel('Select batch-one').check();
  await tokenRow(page, 'batch-two').getByLabel('Select batch-two').check();
  await page.getByRole('button', { name: 'Reveal selected keys' }).click();
  const keys = page.getByRole('dialog', { name: 'Keys of the selected tokens' });
  await keys.waitFor();
  const shown = await keys.locator('code').allTextContents();
  t.equal(shown.length, 2, 'both keys are revealed at once');
  for (const key of shown) t.match(key, /^sk-[0-9A-Za-z]{48}$/);
  await keys.getByRole('button', { name: 'Close' }).click();

  page.once('dialog', (question) => void question.accept());
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByText('2 tokens deleted').waitFor();
  await tokenRow(page, 'batch-one').waitFor({ state: 'detached' });
  t.equal(await page.locator('tr[data-token^="batch-"]').count(), 0, 'both are gone from the list');
  for (const key of shown) t.equal((await chat(key, 'still there?')).status, 401, 'and their keys are refused');
});

t.test('the Models page lists what a token may call, on which routes, at which USD prices', async (t) => {
  await open(page, 'Models');
  await checkLabels(t, page, 'models');
  await page.locator('tr[data-model="gx-3-pro"]').waitFor();
  t.pass('every group: the vip model is listed');
  await page.getByLabel('Models for').selectOption({ label: 'token playground' });
  await page.locator('tr[data-model="gx-3-pro"]').waitFor({ state: 'detached' });
  const row = page.locator('tr[data-model="gx-2.5-pro"]');
  t.match(await row.textContent(), /POST \/v1\/chat\/completions/, 'the routes the model is called on');
  t.match(await row.textContent(), /input \$1\.25 \/ 1M tokens/, 'the input price per million tokens');
  t.match(await row.textContent(), /output \$10 \/ 1M tokens/, 'the output price per million tokens');
  t.match(await row.textContent(), /default × 1/, 'and the group ratio it is billed at');
  await keepScreenshot(page, 'models');
});

t.test('the playground streams a chat and shows the answer, its tokens, its cost and the request in the log', async (t) => {
  await open(page, 'Playground');
  await checkLabels(t, page, 'playground');
  await page.getByLabel('Token').selectOption({ label: 'playground' });
  await page.getByLabel('Model').selectOption('gx-2.5-pro');
  await page.getByLabel('Message').fill('hello from the console');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('echo: hello from the console').waitFor();
  t.match(await page.locator('dd.usage').textContent(), /^\d+ prompt, \d+ completion$/, 'the tokens the stream reported');
  const link = page.getByRole('link', { name: /in the usage log$/ });
  state.playgroundRequestId = ((await link.textContent()) ?? '').replace(/ in the usage log$/, '');
  t.match(state.playgroundRequestId, /^console-[0-9a-f]{32}$/, "the console's own request id");
  t.equal(scene.gx.requests.at(-1)?.path, '/v1beta/models/gx-2.5-pro:streamGenerateContent', 'sent streamed to the channel');
  // Waits on the usage log API: the cost is the quota its record charged.
  await page.locator('dd.cost').getByText(/units\)/).waitFor();
  t.match(await page.locator('dd.cost').textContent(), /^\$[\d.]+ \([\d,]+ units\)/, 'the cost the usage log recorded');
  await keepScreenshot(page, 'playground');
});

t.test("a chat sent from outside with the token's key is answered", async (t) => {
  const response = await chat(state.key, 'hello from outside');
  t.equal(response.status, 200);
  state.outsideRequestId = response.headers.get('x-request-id') ?? '';
  t.match(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content, 'echo: hello from outside');
});

// From here on the steps read the usage log API (`/api/log/self…`).

t.test('the Usage page shows both requests with model, tokens and quota, their totals and a detail', async (t) => {
  await open(page, 'Usage');
  await checkLabels(t, page, 'usage');
  for (const id of [state.playgroundRequestId, state.outsideRequestId]) {
    const row = page.locator(`tr[data-request-id="${id}"]`);
    await row.waitFor();
    t.match(await row.textContent(), /gx-2\.5-pro/, `${id}: the model`);
    t.match(await row.locator('td.tokens').textContent(), /^[1-9]\d* \+ [1-9]\d*$/, `${id}: the prompt and completion tokens`);
    t.match(await row.locator('td.quota').textContent(), /^[1-9][\d,]* \(\$[\d.]+\)$/, `${id}: the quota charged`);
  }
  t.match(await page.locator('.totals').textContent(), /^2 requests/, 'the totals count both');
  const row = page.locator(`tr[data-request-id="${state.playgroundRequestId}"]`);
  await row.getByRole('button', { name: 'Details' }).click();
  const detail = page.locator('.detail');
  t.match(await detail.textContent(), /upstream: as the upstream reported it/, 'the usage source');
  t.match(await detail.textContent(), /input \$1\.25 \/ 1M tokens.*× the group's ratio \(1\)/, 'and how the quota was priced');
  await keepScreenshot(page, 'usage');

  await page.goto(`/console/usage?request_id=${state.outsideRequestId}`);
  await page.locator(`tr[data-request-id="${state.outsideRequestId}"]`).waitFor();
  t.equal(await page.locator('tr[data-request-id]').count(), 1, 'a request id filter, as the playground links it, shows that request alone');
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.locator(`tr[data-request-id="${state.playgroundRequestId}"]`).waitFor();
});

t.test('the usage log is exported as CSV and JSONL with both requests', async (t) => {
  for (const format of ['CSV', 'JSONL']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Export ${format}` }).click()]);
    t.equal(download.suggestedFilename(), `usage-log.${format.toLowerCase()}`);
    const text = readFileSync(await download.path(), 'utf8');
    for (const id of [state.playgroundRequestId, state.outsideRequestId]) t.ok(text.includes(id), `${format}: ${id}`);
    if (format === 'JSONL') {
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as { request_id: string; model_name: string });
      t.equal(lines.length, 2, 'one record a line');
      t.same(lines.map((line) => line.model_name), ['gx-2.5-pro', 'gx-2.5-pro']);
    }
  }
});

t.test('the overview shows the last 24 hours and draws the chart of quota per day by model', async (t) => {
  await open(page, 'Overview');
  await page.locator('.chart canvas').first().waitFor();
  // The figures load apart from the chart: wait until the requests figure is in.
  await page.locator('.stat').nth(1).filter({ hasText: /requests/ }).waitFor();
  t.match(await page.locator('.stat').nth(1).textContent(), /2 requests/, "the last 24 hours' requests");
  t.match(await page.locator('.top-models').textContent(), /gx-2\.5-pro/, 'the top model');
  t.match(await page.locator('.chart .u-legend').textContent(), /gx-2\.5-pro/, 'the chart has a series for the model');
  const drawn = await page.evaluate<number>(`(() => {
    const canvas = document.querySelector('.chart canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let index = 3; index < pixels.length; index += 4) if (pixels[index] > 0) painted += 1;
    return painted;
  })()`);
  t.ok(drawn > 100, `the chart is drawn on its canvas (${drawn} pixels painted)`);
  await keepScreenshot(page, 'overview');
});

t.test("a token's budgets are set in its form and listed with what is left; the user's own budgets are on the overview", async (t) => {
  await open(page, 'Tokens');
  await tokenRow(page, 'playground').getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit playground' });
  await dialog.getByLabel('Daily budget').fill('1000000');
  t.match(await dialog.locator('.field', { has: page.getByLabel('Daily budget') }).textContent(), /2 USD/, 'the budget is shown in USD too');
  await dialog.getByLabel('When a request does not fit').selectOption('soft');
  await checkLabels(t, page, 'the token form with budgets');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Changes saved.').waitFor();
  const budgets = tokenRow(page, 'playground').locator('td[data-label="Budgets"]');
  // The list loads again after the save.
  await budgets.getByText(/Today:/).waitFor();
  t.match(await budgets.textContent(), /Today: \$0 of \$2 used, \$2 left \(soft\)/, 'the day has counted nothing yet');
  t.equal((await chat(state.key, 'within the budget')).status, 200);
  await page.reload();
  await budgets.getByText(/Today:/).waitFor();
  t.match(await budgets.textContent(), /Today: \$0\.\d+ of \$2 used, \$[\d.]+ left \(soft\) *resets \d{4}-\d\d-\d\d \d\d:\d\d/, 'the request is counted, with the reset');
  await keepScreenshot(page, 'tokens-with-budgets');

  const self = ((await (await asUser(scene.user.loginToken, '/api/user/self')).json()) as { data: { id: number } }).data;
  const set = await fetch(`${scene.origin}/api/user/`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${scene.admin.loginToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: self.id, budget_monthly: 5_000_000 }),
  });
  t.equal(set.status, 200, 'an admin gives uma a monthly budget');
  await open(page, 'Overview');
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Your budgets, over all your tokens' }) });
  await card.waitFor();
  t.match(await card.textContent(), /This month: \$0 of \$10 used, \$10 left/, "the user's budget over all its tokens");
});

t.test('a disabled token shows as disabled and its next request is refused', async (t) => {
  await open(page, 'Tokens');
  const row = tokenRow(page, 'playground');
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('disabled', { exact: true }).waitFor();
  t.ok(await row.getByRole('button', { name: 'Enable' }).isVisible(), 'it can be enabled again');
  const refused = await chat(state.key, 'one more?');
  t.equal(refused.status, 401, 'the next request with its key is refused');
});

t.test('every page fits a 360 px wide screen without scrolling sideways', async (t) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const title of ['Overview', 'Tokens', 'Usage', 'Playground', 'Models']) {
    await open(page, title);
    await page.waitForLoadState('networkidle');
    t.equal(await sidewaysOverflow(page), 0, `${title} at 360 px`);
    await keepScreenshot(page, `${title.toLowerCase()}-360`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
});

t.test("an admin sees Channels, tests a channel that works and one that does not, creates a user, sets its budgets and disables it", async (t) => {
  const { page } = await watched();
  await signIn(page, scene.admin.loginToken);
  await open(page, 'Channels');
  await checkLabels(t, page, 'channels');
  const working = page.locator('tr[data-channel="gx-main"]');
  await working.getByRole('button', { name: 'Test' }).click();
  await working.locator('.test-result').getByText(/answered 200/).waitFor();
  const broken = page.locator('tr[data-channel="gx-vip"]');
  await broken.getByRole('button', { name: 'Test' }).click();
  await broken.locator('.test-result').getByText(/failed with/).waitFor();
  t.notMatch(await broken.textContent(), /a-key-gx-refuses/, 'the failure names no channel key');
  await keepScreenshot(page, 'channels');

  await open(page, 'Users');
  await checkLabels(t, page, 'users');
  await page.locator('tr[data-user="uma"]').waitFor();
  t.pass('the users are listed');
  await page.getByLabel('Username').fill('carol');
  await page.getByRole('button', { name: 'Create user' }).click();
  const shown = page.locator('.notice code');
  await shown.waitFor();
  const carolToken = (await shown.textContent()) ?? '';
  t.equal((await asUser(carolToken, '/api/user/self')).status, 200, 'the login token shown once signs carol in');
  t.match(await page.locator('tr[data-user="uma"] td[data-label="Budgets"]').textContent(), /This month: \$[\d.]+ of \$10 used/, "uma's monthly budget is listed");
  await page.locator('tr[data-user="carol"]').getByRole('button', { name: 'Budgets' }).click();
  const budgetsDialog = page.getByRole('dialog', { name: 'Budgets of carol' });
  await budgetsDialog.getByLabel('Daily budget').fill('500000');
  await checkLabels(t, page, "a user's budgets");
  await budgetsDialog.getByRole('button', { name: 'Save budgets' }).click();
  await page.getByText('The budgets of carol are saved.').waitFor();
  await page.locator('tr[data-user="carol"] td[data-label="Budgets"]').getByText(/Today:/).waitFor();
  t.match(await page.locator('tr[data-user="carol"] td[data-label="Budgets"]').textContent(), /Today: \$0 of \$1 used, \$1 left/, "carol's daily budget is set and listed");
  t.match(((await (await asUser(carolToken, '/api/user/self')).json()) as { data: { budget_daily: number } }).data, { budget_daily: 500_000 }, 'and carol reads it on GET /api/user/self');
  await page.locator('tr[data-user="carol"]').getByRole('button', { name: 'Disable' }).click();
  await page.locator('tr[data-user="carol"]').getByText('disabled', { exact: true }).waitFor();
  const refused = await asUser(carolToken, '/api/user/self');
  t.ok(refused.status === 401 || refused.status === 403, `a disabled user's login token is refused (${refused.status})`);
  t.match(((await refused.json()) as { message: string }).message, /disabled/, 'saying the user is disabled');
  await keepScreenshot(page, 'users');
});

t.test("the Audit page shows the admin's changes with who made them, filters them, and shows a change's fields before and after", async (t) => {
  const { page } = await watched();
  await signIn(page, scene.admin.loginToken);
  await open(page, 'Audit');
  await checkLabels(t, page, 'audit');
  const disabled = page.locator('tr[data-audit-id]', { hasText: 'user.update' }).filter({ hasText: 'carol' }).first();
  await disabled.waitFor();
  t.match(await disabled.locator('td[data-label="By"]').textContent(), /^ada \(\d+\)$/, 'the admin who made the change');
  t.equal(await disabled.locator('td[data-label="Address"]').textContent(), '127.0.0.1', 'from her address');
  await disabled.getByRole('button', { name: 'Details' }).click();
  await page.locator('.changes').getByText('status').waitFor();
  t.match(await page.locator('.changes').textContent(), /status: 1 → 2/, 'the disabling is a change of status from 1 to 2');
  await keepScreenshot(page, 'audit');

  await page.getByLabel('Action').selectOption('token.create');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.locator('tr[data-audit-id]', { hasText: 'user.create' }).first().waitFor({ state: 'detached' });
  const actions = await page.locator('tr[data-audit-id] td[data-label="Action"]').allTextContents();
  t.ok(actions.length > 0 && actions.every((action) => action === 'token.create'), 'only the token creations are listed');
  t.match(await page.locator('tr[data-audit-id]').first().locator('td[data-label="By"]').textContent(), /^uma /, "uma's own token changes are on the trail too");

  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Target').fill('carol');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.locator('tr[data-audit-id]', { hasText: 'token.create' }).first().waitFor({ state: 'detached' });
  t.same(
    await page.locator('tr[data-audit-id] td[data-label="Action"]').allTextContents(),
    ['user.update', 'user.update', 'user.create'],
    "carol's creation, her budgets and her disabling, newest first",
  );

  await page.getByLabel('By user id').fill('nobody');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('expected a positive integer').waitFor();
  t.pass("a bad filter's error is shown beside it");

  await page.setViewportSize({ width: 360, height: 740 });
  await page.waitForLoadState('networkidle');
  t.equal(await sidewaysOverflow(page), 0, 'Audit at 360 px');
  await page.setViewportSize({ width: 1280, height: 860 });
});

t.test('an admin creates a channel in the console, its model is called at once, and she edits, disables, enables and deletes it', async (t) => {
  const { page } = await watched();
  await signIn(page, scene.admin.loginToken);
  await open(page, 'Channels');
  await page.getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New channel' });
  await dialog.getByLabel('Name').fill('gx-console');
  await dialog.getByLabel('Plugin', { exact: true }).fill('gx');
  await dialog.getByLabel('Base URL').fill('not a url');
  await dialog.getByLabel('API keys').fill(gxUpstreamKey);
  await dialog.getByLabel('Models').fill('gx-3-console');
  await checkLabels(t, page, 'the channel form');
  await dialog.getByRole('button', { name: 'Create channel' }).click();
  const invalid = dialog.locator('.field.invalid');
  await invalid.waitFor();
  t.equal(await invalid.locator('label').textContent(), 'Base URL', "the API's refusal is shown beside the field it names");
  t.match(await invalid.locator('.field-error').textContent(), /base_url: expected a URL/);
  await dialog.getByLabel('Base URL').fill(scene.gx.url);
  await keepScreenshot(page, 'channel-form');
  await dialog.getByRole('button', { name: 'Create channel' }).click();
  await page.getByText('gx-console is created and serving.').waitFor();
  const row = page.locator('tr[data-channel="gx-console"]');
  t.match(await row.textContent(), /console\s*enabled/, 'listed as created here and enabled');
  t.notMatch(await page.locator('table.channels').textContent(), new RegExp(gxUpstreamKey), 'the key is not shown');

  await row.getByRole('button', { name: 'Test' }).click();
  await row.locator('.test-result').getByText(/answered 200/).waitFor();
  const key = await adminKey('channel-client');
  const called = await chatWith(key, 'gx-3-console', 'through the new channel');
  t.equal(called.status, 200, "a client calls the new channel's model");
  t.equal(scene.gx.requests.at(-1)?.path, '/v1beta/models/gx-3-console:generateContent', 'and it reached the upstream through it');

  await row.getByRole('button', { name: 'Edit' }).click();
  const editing = page.getByRole('dialog', { name: 'Channel gx-console' });
  t.equal(await editing.getByLabel('API keys').inputValue(), '', 'the key field starts empty: keys are write-only');
  await editing.getByLabel('Priority').fill('5');
  await editing.getByRole('button', { name: 'Save channel' }).click();
  await page.getByText('gx-console is saved.').waitFor();
  t.match(await row.locator('td[data-label="Priority, weight"]').textContent(), /5, 1/, 'the new priority is listed');
  t.equal((await chatWith(key, 'gx-3-console', 'still served with its kept key')).status, 200, 'the kept key still works');

  await row.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('gx-console is disabled').waitFor();
  await row.getByText('disabled', { exact: true }).waitFor();
  t.ok(await row.getByRole('button', { name: 'Test' }).isDisabled(), 'a disabled channel is not tested');
  const whileDisabled = await chatWith(key, 'gx-3-console', 'disabled');
  t.equal(whileDisabled.status, 404, 'a disabled channel serves nothing (no other channel has the model)');
  await row.getByRole('button', { name: 'Enable' }).click();
  await page.getByText('gx-console is enabled').waitFor();
  t.equal((await chatWith(key, 'gx-3-console', 'enabled again')).status, 200, 'enabled again, it serves');

  const file = page.locator('tr[data-channel="gx-main"]');
  t.equal(await file.getByRole('button', { name: 'Edit' }).count(), 0, 'a config file channel has no Edit button');
  t.match(await file.textContent(), /edited in the config file/);
  await checkLabels(t, page, 'channels with a runtime channel');
  await keepScreenshot(page, 'channels-runtime');

  page.once('dialog', (question) => void question.accept());
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('gx-console is deleted.').waitFor();
  await row.waitFor({ state: 'detached' });
  t.equal((await chatWith(key, 'gx-3-console', 'deleted')).status, 404, 'a deleted channel serves nothing');
});

t.test('a user sees no admin page, and the admin APIs refuse that user', async (t) => {
  const nav = await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link').allTextContents();
  t.same(nav, ['Overview', 'Tokens', 'Usage', 'Playground', 'Models'], 'no Channels, Users or Audit link');
  await page.goto('/console/channels');
  await page.getByText('This page is for admins').waitFor();
  for (const path of ['/api/channel/', '/api/user/', '/api/log/', '/api/audit']) t.equal((await asUser(scene.user.loginToken, path)).status, 403, `${path} refuses a user`);
});

t.test('no page broke the Content-Security-Policy or threw a script error', async (t) => {
  for (const [index, opened] of contexts.entries()) {
    t.same(opened.policyViolations, [], `context ${index + 1}: no CSP violation`);
    t.same(opened.scriptErrors, [], `context ${index + 1}: no script error`);
  }
});
