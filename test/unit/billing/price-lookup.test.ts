import t from 'tap';
import { lookUpPrice } from '../../../core/billing/price-lookup.js';

const pricing = {
  'gx-3*': { input_per_mtok: 1 },
  'gx-3-pro*': { input_per_mtok: 2 },
  'gx-3-pro-preview': { input_per_mtok: 3 },
  '*-preview': { input_per_mtok: 4 },
  'gi-2': { per_image: 0.04 },
};

t.test('an exact key wins over every pattern, however specific', async (t) => {
  t.same(lookUpPrice(pricing, 'gx-3-pro-preview'), { input_per_mtok: 3 });
  t.same(lookUpPrice(pricing, 'gi-2'), { per_image: 0.04 });
});

t.test('without an exact key, the longest matching pattern applies', async (t) => {
  t.same(lookUpPrice(pricing, 'gx-3-pro-latest'), { input_per_mtok: 2 });
  t.same(lookUpPrice(pricing, 'gx-3-flash'), { input_per_mtok: 1 });
  t.same(lookUpPrice(pricing, 'gp-5-preview'), { input_per_mtok: 4 });
});

t.test('among equally long matching patterns the first listed applies', async (t) => {
  t.same(lookUpPrice({ 'ab*': { per_call: 1 }, '*yz': { per_call: 2 } }, 'abyz'), { per_call: 1 });
});

t.test('a model no key matches has no price', async (t) => {
  t.equal(lookUpPrice(pricing, 'gi-3'), undefined);
  t.equal(lookUpPrice(pricing, 'gi-2-mini'), undefined);
  t.equal(lookUpPrice({}, 'gx-3'), undefined);
});

t.test('a key that names an inherited object property is not a price', async (t) => {
  t.equal(lookUpPrice(pricing, 'constructor'), undefined);
  t.equal(lookUpPrice(pricing, 'toString'), undefined);
});
