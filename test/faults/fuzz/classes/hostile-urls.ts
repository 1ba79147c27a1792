import type { SeededRandom } from '../seeded-random.js';
import { assemble, stringPaths, validParts, withValueAt } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

const hostileAddresses = [
  'file:///etc/passwd',
  'file://localhost/etc/shadow',
  'gopher://127.0.0.1:6379/_FLUSHALL',
  'dict://127.0.0.1:11211/stat',
  'ftp://127.0.0.1/',
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::1]/',
  'http://[::]:80/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://0.0.0.0/',
  'http://127.1/',
  'http://0177.0.0.1/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://ｌｏｃａｌｈｏｓｔ/',
  'http://①②⑦.0.0.1/',
  'http://127。0。0。1/',
  'http://10.0.0.1/',
  'http://192.168.0.1/admin',
  'http://100.64.0.1/',
  'http://[fe80::1%25eth0]/',
  'https://user:pass@127.0.0.1/',
  'http://example.com@127.0.0.1/',
  'http://127.0.0.1#@example.com/',
  'http://127.0.0.1:22/',
  'http://127.0.0.1:6379/',
  'http://xn--/',
  'http://xn--ls8h.xn--/',
  'https://exa\u0000mple.com/',
  'http://\u202e127.0.0.1/',
  'http://127.0.0.1/\r\nX-Injected: 1',
  'data:image/png;base64,***',
  'data:text/html,<script>alert(1)</script>',
  'data:;base64,',
  `data:image/png;base64,${'A'.repeat(100_000)}`,
  'asset://../../etc/passwd',
  'asset://',
  '//127.0.0.1/',
  'http:/127.0.0.1',
  `http://127.0.0.1/${'a'.repeat(70_000)}`,
];

/** Addresses of this machine's canary server, in the spellings a guard must see through. */
const canaryUrls = (port: number) => [
  `http://127.0.0.1:${port}/canary.png`,
  `http://localhost:${port}/canary.png`,
  `http://[::1]:${port}/canary.png`,
  `http://[::ffff:127.0.0.1]:${port}/canary.png`,
  `http://127.1:${port}/canary.png`,
  `http://2130706433:${port}/canary.png`,
  `http://0x7f.0.0.1:${port}/canary.png`,
  `http://ｌｏｃａｌｈｏｓｔ:${port}/canary.png`,
  `http://127。0。0。1:${port}/canary.png`,
  `http://①②⑦.0.0.1:${port}/canary.png`,
  `https://127.0.0.1:${port}/canary.png`,
  `http://0.0.0.0:${port}/canary.png`,
];

/** Hostile URLs in every URL field: other schemes, metadata, loopback and private addresses in their many spellings, IDN tricks, this machine's canary. */
export const hostileUrls: InputClass = {
  name: 'hostile-urls',
  seed: 0x5eed0005,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    const hostile = [...hostileAddresses, ...canaryUrls(environment.canaryPort)];
    if (parts.json !== undefined && random.chance(0.85)) {
      let json: unknown = parts.json;
      const fields = route.urlFields ?? [];
      if (fields.length > 0 && random.chance(0.8)) {
        for (const path of fields) if (fields.length === 1 || random.chance(0.6)) json = withValueAt(json, path, random.pick(hostile));
      } else {
        const strings = stringPaths(json);
        const path = strings.length > 0 && random.chance(0.5) ? random.pick(strings) : [random.pick(['image_url', 'url', 'image', 'callback_url', 'input_reference', 'file_url', 'video_url'])];
        json = withValueAt(json, path, random.pick(hostile));
      }
      return assemble({ ...parts, json: json as Record<string, unknown> });
    }
    if (parts.form !== undefined) {
      const form = structuredClone(parts.form);
      form.fields[random.pick(['image', 'input_reference', 'mask', 'url', 'prompt'])] = random.pick(hostile);
      return assemble({ ...parts, form });
    }
    const params = Object.fromEntries(Object.keys(parts.params).map((name) => [name, random.pick(hostile)]));
    const query = { ...parts.query, [random.pick(['id', 'url', 'keyword', 'group_id', 'callback'])]: random.pick(hostile) };
    return assemble({ ...parts, params, query });
  },
};
