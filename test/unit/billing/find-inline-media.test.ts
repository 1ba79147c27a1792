import t from 'tap';
import { findInlineMedia } from '../../../core/billing/find-inline-media.js';

const png = (marker: string) => ({ inlineData: { mimeType: 'image/png', data: `${marker}AAAA` } });

/** Native contents whose one part is a function response nesting `levels` more, each level with an image beside it. */
function nestedFunctionResponses(levels: number): unknown {
  let parts: unknown[] = [png('deepest')];
  for (let level = 0; level < levels; level += 1) parts = [{ functionResponse: { name: 'lookup', response: {}, parts } }, png(`level${level}`)];
  return { contents: [{ role: 'user', parts }] };
}

t.test('inline media in function responses nested 20,000 deep is found without exhausting the stack', async (t) => {
  const found = findInlineMedia(nestedFunctionResponses(20_000));
  t.equal(found?.length, 20_001, 'every image, the deepest included');
  t.ok(found?.every((media) => media.kind === 'image'), 'each read as an image');
  const markers = found?.map((media) => (media.owner as { data: string }).data.slice(0, -4));
  t.same([markers?.[0], markers?.[1], markers?.at(-1)], ['deepest', 'level0', 'level19999'], 'in order: the parts of a function response before the parts after it');
});
