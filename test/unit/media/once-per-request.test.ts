import t from 'tap';
import { OncePerRequest } from '../../../core/media/once-per-request.js';

t.test('the work runs once and every later attempt gets the same value', async (t) => {
  const once = new OncePerRequest<string>();
  let runs = 0;
  const work = async () => {
    runs += 1;
    return `images of run ${runs}`;
  };
  t.equal(await once.get(work), 'images of run 1');
  t.equal(await once.get(work), 'images of run 1');
  t.equal(runs, 1);
});

t.test('a failed run is forgotten, so the next attempt runs the work again', async (t) => {
  const once = new OncePerRequest<string>();
  await t.rejects(once.get(async () => Promise.reject(new Error('the first attempt was aborted'))), { message: 'the first attempt was aborted' });
  t.equal(await once.get(async () => 'fetched on the second channel'), 'fetched on the second channel');
  t.equal(await once.get(async () => 'never asked'), 'fetched on the second channel');
});
