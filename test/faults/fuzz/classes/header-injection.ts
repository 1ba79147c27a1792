import type { SeededRandom } from '../seeded-random.js';
import { assemble, defaultBoundary, multipartBody, validParts, type RequestParts } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

const badContentTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="unterminated',
  'multipart/mixed; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/json\r\nX-Injected: 1',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/json;;;',
  '',
  ';',
  '*/*',
  'image/png',
  `application/json; ${'p=v;'.repeat(2000)}`,
];

function brokenMultipart(random: SeededRandom, parts: RequestParts): { contentType: string; body: Buffer } {
  const form = parts.form ?? { fields: Object.fromEntries(Object.entries(parts.json ?? { model: 'x' }).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])) };
  const good = multipartBody(form, defaultBoundary);
  const header = `multipart/form-data; boundary=${defaultBoundary}`;
  switch (random.int(10)) {
    case 0:
      return { contentType: 'multipart/form-data; boundary=somethingelse', body: good };
    case 1:
      return { contentType: 'multipart/form-data', body: good };
    case 2:
      return { contentType: header, body: good.subarray(0, random.int(good.length)) };
    case 3:
      return { contentType: header, body: Buffer.from(good.toString('latin1').replace(`--${defaultBoundary}--`, ''), 'latin1') };
    case 4:
      return { contentType: header, body: Buffer.from(good.toString('latin1').replaceAll('\r\n\r\n', '\r\n'), 'latin1') };
    case 5:
      return {
        contentType: header,
        body: Buffer.concat([Buffer.from(`--${defaultBoundary}\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd\r\nX: y"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n`), good]),
      };
    case 6:
      return { contentType: `multipart/form-data; boundary=${'b'.repeat(200)}`, body: multipartBody(form, 'b'.repeat(200)) };
    case 7:
      return { contentType: header, body: Buffer.concat([Buffer.from(`--${defaultBoundary}\r\n${'X-Long: '.padEnd(20_000, 'h')}\r\n\r\nv\r\n`), good]) };
    case 8:
      return { contentType: header, body: Buffer.from(`--${defaultBoundary}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${defaultBoundary}--\r\n`) };
    default:
      return { contentType: 'multipart/form-data; boundary=" spaced boundary "', body: multipartBody(form, ' spaced boundary ') };
  }
}

/** Header injection: CR/LF and NUL in values, huge and many headers, bad content types, broken multipart bodies, other methods. */
export const headerInjection: InputClass = {
  name: 'header-injection',
  seed: 0x5eed0006,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    const request = assemble(parts);
    const headers = request.headers;
    const authorization = String(headers.authorization ?? '');
    for (let count = random.between(1, 3); count > 0; count -= 1) {
      switch (random.int(9)) {
        case 0:
          headers.authorization = random.pick([
            `${authorization}\r\nX-Injected: 1`,
            `${authorization}\u0000`,
            `${authorization} ${authorization}`,
            `Bearer ${'k'.repeat(random.between(1000, 70_000))}`,
            'Bearer',
            'Bearer ',
            'Basic dXNlcjpwYXNz',
            `bearer ${authorization.slice(7)}`,
            `Bearer\t${authorization.slice(7)}`,
            `Bearer sk-${'é'.repeat(48)}`,
          ]);
          break;
        case 1:
          headers.authorization = [authorization, 'Bearer sk-other'];
          break;
        case 2:
          headers['content-type'] = random.pick(badContentTypes);
          break;
        case 3:
          headers['x-request-id'] = random.pick(['id\r\nX-Injected: 1', 'x'.repeat(10_000), 'ünïcödé', '../../etc', '<script>', '\u0000']);
          break;
        case 4:
          for (let index = 0; index < random.between(100, 1500); index += 1) headers[`x-fuzz-${index}`] = `v${index}`;
          break;
        case 5:
          headers[random.pick(['x-gx-api-key', 'x-forwarded-for', 'host', 'accept', 'content-encoding', 'transfer-encoding', 'expect', 'origin'])] = random.pick([
            'value\r\nX-Injected: 1',
            '1.1.1.1, 127.0.0.1, ::1',
            'gzip',
            'chunked',
            '100-continue',
            'h'.repeat(20_000),
            'evil.example\r\n',
            '',
          ]);
          break;
        case 6: {
          const broken = brokenMultipart(random, parts);
          headers['content-type'] = broken.contentType;
          request.payload = broken.body;
          break;
        }
        case 7:
          request.method = random.pick(['PATCH', 'OPTIONS', 'HEAD', 'PUT', 'DELETE', 'GET', 'POST']);
          break;
        default:
          headers['content-type'] = `application/json\r\nContent-Length: 0`;
      }
    }
    return request;
  },
};
