import t from 'tap';
import { ipInRanges, parseIpRange, type IpRange } from '../../../core/security/ip-allow-list.js';

const ranges = (...entries: string[]) => entries.map((entry) => parseIpRange(entry) as IpRange);

t.test('an address matches a CIDR range it falls in and no other', async (t) => {
  t.ok(ipInRanges('10.1.2.3', ranges('10.0.0.0/8')));
  t.notOk(ipInRanges('11.1.2.3', ranges('10.0.0.0/8')));
  t.ok(ipInRanges('192.168.1.7', ranges('192.168.1.7')));
  t.ok(ipInRanges('2001:db8::1', ranges('2001:db8::/32')));
});

t.test('an IPv4-mapped IPv6 peer matches IPv4 ranges', async (t) => {
  t.ok(ipInRanges('::ffff:127.0.0.1', ranges('127.0.0.0/8')));
});

t.test('entries that are neither an address nor a range are recognized as invalid', async (t) => {
  t.equal(parseIpRange('not-an-ip'), undefined);
  t.equal(parseIpRange('10.0.0.0/40'), undefined);
  t.notOk(ipInRanges('garbage', ranges('10.0.0.0/8')));
});
