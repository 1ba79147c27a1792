import t from 'tap';
import { giSizeProblem } from '../../../../providers/gi/gi-request-schema.js';

t.test('the presets and sizes within the bounds are accepted', async (t) => {
  for (const size of ['1024x1024', '1024x1536', '1536x1024', 'auto', '2048x2048', '3840x2160', '2160x3840', '1024x640', '2880x960', '1920x1088']) {
    t.equal(giSizeProblem(size), undefined, size);
  }
});

t.test('each bound is explained when a size breaks it', async (t) => {
  t.match(giSizeProblem('1920x1080'), /multiples of 16/);
  t.match(giSizeProblem('4096x2160'), /at most 3840 pixels/);
  t.match(giSizeProblem('512x512'), /at least 655,360 pixels/);
  t.match(giSizeProblem('3840x3840'), /at most 8,294,400 pixels/);
  t.match(giSizeProblem('3072x960'), /at most 3 times the short side/);
  t.match(giSizeProblem('0x0'), /at least 655,360 pixels/);
  for (const size of ['1024X1024', '1024*1024', '16:9', ' 1024x1024', '1024x1024px', '']) t.match(giSizeProblem(size), /^expected 1024x1024/, JSON.stringify(size));
});
