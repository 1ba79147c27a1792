import t from 'tap';
import { dsrModelProfile, dsrSizes2K, dsrSizes30, dsrSizes4K } from '../../../../providers/dsr/dsr-model-profiles.js';

t.test('each spec model has its own rules', async (t) => {
  t.match(dsrModelProfile('dsr-3-0-t2i-250415', 'x'), { sizes: dsrSizes30, sizeTiers: [], guidanceScale: true, sequential: false, optimizeModes: [], references: { min: 0, max: 0 } });
  t.match(dsrModelProfile('dse-3-0-i2i-250628', 'x'), { sizes: dsrSizes30, guidanceScale: true, references: { min: 1, max: 1 } });
  t.match(dsrModelProfile('dsr-4-0-250828', 'x'), { sizes: [...dsrSizes2K, ...dsrSizes4K], sizeTiers: ['2K', '4K'], guidanceScale: false, sequential: true, optimizeModes: ['standard', 'fast'] });
  t.match(dsrModelProfile('dsr-4-5-251128', 'x'), { sequential: true, optimizeModes: ['standard'], references: { min: 0, max: 14 } });
});

t.test('an alias is known by the upstream model it maps to, or by the version in its name', async (t) => {
  t.equal(dsrModelProfile('my-images', 'doubao-seedream-4-0-250828').id, 'dsr-4-0-250828');
  t.equal(dsrModelProfile('my-edits', 'doubao-seededit-3-0-i2i-250628').id, 'dse-3-0-i2i-250628');
  t.equal(dsrModelProfile('dsr-4-5-preview', 'ep-20260101-abcde').id, 'dsr-4-5-251128');
  t.equal(dsrModelProfile('seedream-3-0-t2i', 'ep-1').id, 'dsr-3-0-t2i-250415');
});

t.test('a model of no known version is a 400 naming the model', async (t) => {
  t.throws(() => dsrModelProfile('dsr-9-9', 'ep-20260101-abcde'), { statusCode: 400, code: 'invalid_request', param: 'model', message: /^model: "dsr-9-9" is not a Seedream-style model/ });
});
