import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/build-test-app.js';

const policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const script = `console.log(${JSON.stringify('the console '.repeat(200))});\n`;
const page = '<!doctype html><html><head><script type="module" src="/console/assets/index-Ab9_xZ.js"></script></head><body><div id="app"></div></body></html>';

/**
 * A console build as Vite writes it, in a folder of its own (the test's own folder is the
 * store's): the page, and assets with hashed, mixed-case names. Empty with `built` false.
 */
function consoleBuild(t: Test, built = true): string {
  const directory = mkdtempSync(join(tmpdir(), 'console-build-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  if (!built) return directory;
  mkdirSync(join(directory, 'assets'));
  writeFileSync(join(directory, 'index.html'), page);
  writeFileSync(join(directory, 'assets', 'index-Ab9_xZ.js'), script);
  writeFileSync(join(directory, 'assets', 'index-Qr7.css'), 'body { margin: 0 }\n');
  return directory;
}

t.test('the console page answers /console and every path under it, revalidated on each load, under a strict CSP', async (t) => {
  const gateway = await buildTestApp(t, 'memory', {}, { consoleDirectory: consoleBuild(t) });
  for (const url of ['/console', '/console/', '/console/tokens', '/console/usage?request_id=abc']) {
    const response = await gateway.app.inject({ method: 'GET', url });
    t.equal(response.statusCode, 200, url);
    t.equal(response.body, page, `${url}: the page, for the console to route in the browser`);
    t.match(response.headers['content-type'], /^text\/html; charset=utf-8/);
    t.equal(response.headers['cache-control'], 'no-cache', `${url}: a new build is seen on the next load`);
    t.equal(response.headers['content-security-policy'], policy);
    t.equal(response.headers['x-content-type-options'], 'nosniff');
    t.equal(response.headers['x-frame-options'], 'DENY');
    t.equal(response.headers['set-cookie'], undefined, 'no cookie, ever');
  }
});

t.test('hashed assets are cached for a year, sent gzipped to a client that takes it, and revalidated by ETag', async (t) => {
  const gateway = await buildTestApp(t, 'memory', {}, { consoleDirectory: consoleBuild(t) });
  const plain = await gateway.app.inject({ method: 'GET', url: '/console/assets/index-Ab9_xZ.js' });
  t.equal(plain.statusCode, 200);
  t.equal(plain.body, script, 'the file, found by its mixed-case name');
  t.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
  t.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.equal(plain.headers['content-security-policy'], policy);
  t.equal(plain.headers['x-content-type-options'], 'nosniff');
  t.equal(plain.headers['content-encoding'], undefined);

  const zipped = await gateway.app.inject({ method: 'GET', url: '/console/assets/index-Ab9_xZ.js', headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.equal(zipped.headers.vary, 'accept-encoding');
  t.ok(zipped.rawPayload.length < Buffer.byteLength(script) / 5, 'smaller than the file');
  t.equal(gunzipSync(zipped.rawPayload).toString(), script);

  const css = await gateway.app.inject({ method: 'GET', url: '/console/assets/index-Qr7.css' });
  t.equal(css.headers['content-type'], 'text/css; charset=utf-8');

  const again = await gateway.app.inject({ method: 'GET', url: '/console/assets/index-Ab9_xZ.js', headers: { 'if-none-match': String(plain.headers.etag) } });
  t.equal(again.statusCode, 304, 'the ETag it was sent revalidates it');
  t.equal(again.body, '');
});

t.test('an asset the build does not have is a 404, not the page', async (t) => {
  const gateway = await buildTestApp(t, 'memory', {}, { consoleDirectory: consoleBuild(t) });
  const response = await gateway.app.inject({ method: 'GET', url: '/console/assets/index-Old1.js' });
  t.equal(response.statusCode, 404);
  t.notMatch(response.body, /<html/);
});

t.test('GET / and /dashboard lead to the console', async (t) => {
  const gateway = await buildTestApp(t, 'memory', {}, { consoleDirectory: consoleBuild(t) });
  for (const url of ['/', '/dashboard']) {
    const response = await gateway.app.inject({ method: 'GET', url });
    t.equal(response.statusCode, 302, url);
    t.equal(response.headers.location, '/console/');
  }
});

t.test('a gateway without a console build starts, says so in its log, and answers /console with how to build it', async (t) => {
  const gateway = await buildTestApp(t, 'memory', {}, { consoleDirectory: consoleBuild(t, false) });
  t.match(gateway.logLines.join(''), /the web console is not built/);
  const response = await gateway.app.inject({ method: 'GET', url: '/console/tokens' });
  t.equal(response.statusCode, 503);
  t.match(response.headers['content-type'], /^text\/plain/);
  t.match(response.body, /not built[\s\S]*npm run build/);
  t.equal(response.headers['content-security-policy'], policy);
  t.equal((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'everything else serves');
});
