import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Test } from 'tap';
import { UserService } from '../../core/users/user-service.js';
import { buildConsole } from '../../scripts/build-console.js';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { gxChannel, gxUpstreamKey, scenarioGateway } from '../helpers/gateway-scenario.js';

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
export const chromiumPath = '/usr/bin/chromium';

/** Where each page's screenshot is kept after a run (gitignored). */
export const screenshotDirectory = fileURLToPath(new URL('../artifacts/console/', import.meta.url));

/**
 * Headless, and quiet: no GPU, no background requests, no QUIC, no first-run or sync or
 * component updates, so the browser talks to the gateway under test and nothing else.
 * `launch` gives every browser a fresh temporary profile (user-data-dir) of its own.
 */
export async function launchChromium(t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());
  return browser;
}

/** A user of the scene: its name and login token. */
export interface SceneUser {
  username: string;
  loginToken: string;
}

/** A gateway serving a fresh console build in front of a fake gx upstream, listening on loopback. */
export interface ConsoleScene {
  gateway: TestApp;
  gx: FakeGxUpstream;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  admin: SceneUser;
  user: SceneUser;
}

/** What a scene may change: the port the gateway listens on (default: any free one), and config sections. */
export interface ConsoleSceneOptions {
  port?: number;
  overrides?: Record<string, unknown>;
}

/**
 * Builds the console once with Vite into a temporary folder (as `npm run build` does into
 * dist/console) and starts a gateway serving it: `gx-main` (the default group, gx-2.5-pro)
 * on the fake gx upstream, and `gx-vip` (the vip group, gx-3-pro) on the same upstream with
 * a key it refuses, so a channel test can fail. An admin and a user are created.
 */
export async function startConsoleScene(t: Test, options: ConsoleSceneOptions = {}): Promise<ConsoleScene> {
  const consoleDirectory = mkdtempSync(join(tmpdir(), 'console-build-'));
  t.teardown(() => rmSync(consoleDirectory, { recursive: true, force: true }));
  await buildConsole(consoleDirectory);
  const gx = await startFakeGxUpstream({ apiKey: gxUpstreamKey });
  t.teardown(() => gx.close());
  const gateway = await scenarioGateway(
    t,
    {
      providers: [gxChannel('gx-main', gx.url), gxChannel('gx-vip', gx.url, { api_key: 'a-key-gx-refuses', groups: ['vip'], models: ['gx-3-pro'] })],
      ...options.overrides,
    },
    { consoleDirectory },
  );
  await gateway.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = gateway.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the gateway is not listening on a port');
  const users = gateway.app.gateway.resolve(UserService);
  const admin = await users.create('ada', 'admin');
  const user = await users.create('uma', 'user');
  return {
    gateway,
    gx,
    origin: `http://127.0.0.1:${address.port}`,
    admin: { username: 'ada', loginToken: admin.loginToken },
    user: { username: 'uma', loginToken: user.loginToken },
  };
}

// Runs in every page before the console's own script and reports each CSP violation to the
// test through a binding, so none is lost when a page is left.
const watchPolicy = `
  document.addEventListener('securitypolicyviolation', (event) => {
    window.reportPolicyViolation(event.violatedDirective + ' ' + (event.blockedURI || 'inline') + ' at ' + (event.sourceFile || '?') + ':' + event.lineNumber);
  });
`;

/** A browser context on the scene's gateway that records script errors, and may read the clipboard. */
export interface WatchedContext {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and `console.error` lines of its pages (not the browser's notes of answers with an error status, which the steps cause and the console shows). */
  scriptErrors: string[];
  /** The Content-Security-Policy violations of its pages. */
  policyViolations: string[];
}

/** Opens a context with a 1280×860 window (pages can resize it) and one page. */
export async function openContext(browser: Browser, origin: string): Promise<WatchedContext> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  // Each step waits for what a person would see; 10 s is room for a loaded machine, and keeps
  // a step that cannot pass from using up the file's time.
  context.setDefaultTimeout(10_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const policyViolations: string[] = [];
  await context.exposeBinding('reportPolicyViolation', (_source, violation: string) => void policyViolations.push(violation));
  await context.addInitScript(watchPolicy);
  const page = await context.newPage();
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded with a status of')) scriptErrors.push(message.text());
  });
  return { context, page, scriptErrors, policyViolations };
}

/** Form controls on the page with no label a screen reader would read (a `<label>`, `aria-label` or `aria-labelledby`). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`
    [...document.querySelectorAll('input, select, textarea')]
      .filter((control) => control.type !== 'hidden')
      .filter((control) => control.labels.length === 0 && !control.getAttribute('aria-label') && !control.getAttribute('aria-labelledby'))
      .map((control) => control.outerHTML.slice(0, 120))
  `);
}

/** How far the page is wider than the window (0 when nothing needs a sideways scroll). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/** Keeps a screenshot of the page as a test artifact, `test/artifacts/console/<name>.png`. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDirectory, { recursive: true });
  await page.screenshot({ path: join(screenshotDirectory, `${name}.png`), fullPage: true });
}

/** Signs in on the sign-in page with the keyboard alone: the token typed into the focused field, then Enter. */
export async function signIn(page: Page, loginToken: string): Promise<void> {
  await page.goto('/console/');
  await page.getByLabel('Login token').focus();
  await page.keyboard.type(loginToken);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}
