import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { tinyPngBase64 } from '../fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { issueToken, scenarioGateway, scenarioPricing } from '../helpers/gateway-scenario.js';

// Found by the fuzz: a multipart body the parser cannot read (no boundary, another boundary,
// cut short) was a 500 on the image and video routes. It is the client's mistake: a 400.

const boundary = 'fuzzboundary';
const form = (fields: Record<string, string>) =>
  Buffer.from(
    `${Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('')}--${boundary}\r\nContent-Disposition: form-data; name="image[]"; filename="in.png"\r\nContent-Type: image/png\r\n\r\n${Buffer.from(tinyPngBase64, 'base64').toString('latin1')}\r\n--${boundary}--\r\n`,
    'latin1',
  );

function assertClientError(t: Test, response: LightMyRequestResponse, images: boolean): void {
  t.equal(response.statusCode, 400, 'answers 400');
  const error = response.json().error;
  t.match(error, { code: 'invalid_request', message: /multipart|form/ }, 'saying the form could not be read');
  t.same(Object.keys(error).sort(), images ? ['code', 'message', 'type'] : ['code', 'message', 'param', 'type'], "in the route's dialect");
}

t.test('a multipart body the parser cannot read is a 400 on the image and video routes', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: 'upstream-key' });
  t.teardown(() => fake.close());
  const channel = (name: string, plugin: string, models: string[]) => ({ name, plugin, base_url: fake.url, api_key: 'upstream-key', models });
  const gateway = await scenarioGateway(t, {
    pricing: { ...scenarioPricing, 'gi-2': { per_image: 0.04 }, 'sr-2': { per_second: 0.1 } },
    providers: [channel('gi', 'gi', ['gi-2']), channel('sr', 'sr', ['sr-2'])],
  });
  const token = await issueToken(t, gateway);
  const routes: Array<[string, Record<string, string>, boolean]> = [
    ['/v1/images/edits', { model: 'gi-2', prompt: 'add a boat' }, true],
    ['/v1/images/generations', { model: 'gi-2', prompt: 'a boat' }, true],
    ['/v1/video/generations', { model: 'sr-2', prompt: 'a boat' }, false],
  ];
  for (const [url, fields, images] of routes) {
    const body = form(fields);
    const cases: Array<[string, string, Buffer]> = [
      ['no boundary in the content type', 'multipart/form-data', body],
      ['another boundary than the body uses', 'multipart/form-data; boundary=somethingelse', body],
      ['a body cut short', `multipart/form-data; boundary=${boundary}`, body.subarray(0, 90)],
    ];
    for (const [what, contentType, payload] of cases) {
      t.test(`${url}: ${what}`, async (t) => {
        const response = await gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': contentType }, payload });
        assertClientError(t, response, images);
      });
    }
  }
  t.test('nothing was logged as a server failure', async (t) => {
    t.same(gateway.logLines.filter((line) => line.includes('"level":50')), []);
  });
  t.equal(fake.requests.length, 0, 'no upstream was asked');
});
