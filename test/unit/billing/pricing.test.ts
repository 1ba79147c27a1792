import t from 'tap';
import { groupRatioOf, priceOfModel } from '../../../core/billing/pricing.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { storageFor, testConfig } from '../../helpers/test-config.js';

t.test('a priced model gets its price, exact or by pattern', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: { 'gx-2.5-pro': { input_per_mtok: 1.25 }, 'gx-3*': { per_call: 0.01 } } });
  t.same(priceOfModel(config, 'gx-2.5-pro'), { input_per_mtok: 1.25 });
  t.same(priceOfModel(config, 'gx-3-flash'), { per_call: 0.01 });
});

t.test('a model without a price is refused with 400 model_price_missing naming the model and the pricing key', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: {} });
  const error = t.throws(() => priceOfModel(config, 'gx-9')) as unknown;
  t.ok(GatewayError.is(error));
  t.match(error, { statusCode: 400, code: 'model_price_missing', param: 'model', message: /"gx-9".*pricing/ });
});

t.test('with billing.allow_free_models a model without a price is free', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: {}, billing: { allow_free_models: true } });
  t.equal(priceOfModel(config, 'gx-9'), undefined);
});

t.test('the group ratio comes from the config; no group means default, an unknown group 1', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { groups: { default: { ratio: 1.5 }, vip: { ratio: 0.8 } } });
  t.equal(groupRatioOf(config, 'vip'), 0.8);
  t.equal(groupRatioOf(config, 'default'), 1.5);
  t.equal(groupRatioOf(config, ''), 1.5);
  t.equal(groupRatioOf(config, 'removed'), 1);
});
