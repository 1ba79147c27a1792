import t from 'tap';
import { matchesModelPattern } from '../../../core/routing/model-pattern.js';

t.test('an exact entry matches only that model', async (t) => {
  t.ok(matchesModelPattern('gx-2.5-pro', 'gx-2.5-pro'));
  t.notOk(matchesModelPattern('gx-2.5-pro', 'gx-2.5-pro-preview'));
});

t.test('* matches any run of characters, anywhere in the entry', async (t) => {
  t.ok(matchesModelPattern('gx-3*', 'gx-3-pro-preview'));
  t.ok(matchesModelPattern('gx-3*', 'gx-3'));
  t.ok(matchesModelPattern('*-preview', 'gx-3-pro-preview'));
  t.ok(matchesModelPattern('gx-*-pro*', 'gx-3.1-pro-preview'));
  t.notOk(matchesModelPattern('gx-3*', 'gp-3'));
  t.notOk(matchesModelPattern('a*a', 'a'));
});
