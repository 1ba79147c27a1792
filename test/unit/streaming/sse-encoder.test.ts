import t from 'tap';
import { encodeSseEvent, sseComment } from '../../../core/streaming/sse-encoder.js';
import { SseSplitter } from '../../../core/streaming/sse-splitter.js';

const readBack = (text: string) => {
  const splitter = new SseSplitter();
  return [...splitter.push(Buffer.from(text, 'utf8')), ...splitter.end()];
};

t.test('a one-line event is a data line and a blank line', async (t) => {
  t.equal(encodeSseEvent('{"a":1}'), 'data: {"a":1}\n\n');
});

t.test('a named event puts its event line first', async (t) => {
  t.equal(encodeSseEvent('{"type":"response.created"}', 'response.created'), 'event: response.created\ndata: {"type":"response.created"}\n\n');
});

t.test('multi-line data becomes one data line per line, whatever the line break', async (t) => {
  t.equal(encodeSseEvent('one\ntwo'), 'data: one\ndata: two\n\n');
  t.equal(encodeSseEvent('one\r\ntwo\rthree\n'), 'data: one\ndata: two\ndata: three\ndata: \n\n');
});

t.test('empty data is still an event', async (t) => {
  t.equal(encodeSseEvent(''), 'data: \n\n');
  t.same(readBack(encodeSseEvent('')), [{ data: '' }]);
});

t.test('line breaks in an event name cannot inject fields', async (t) => {
  t.equal(encodeSseEvent('x', 'evil\ndata: injected\r'), 'event: evildata: injected\ndata: x\n\n');
  t.same(readBack(encodeSseEvent('x', 'evil\ndata: injected')), [{ event: 'evildata: injected', data: 'x' }]);
});

t.test('a comment is a keepalive frame that readers ignore', async (t) => {
  t.equal(sseComment('ping'), ': ping\n\n');
  t.equal(sseComment('two\nlines'), ': two\n: lines\n\n');
  t.same(readBack(sseComment('ping') + encodeSseEvent('after')), [{ data: 'after' }]);
});

t.test('what the encoder writes, the splitter reads back unchanged', async (t) => {
  const samples = ['plain', ' leading space', 'a\nb', 'a\n\nb', '\n', '😀 中文', ': not a comment', 'data: nested'];
  for (const data of samples) {
    t.same(readBack(encodeSseEvent(data, 'name')), [{ event: 'name', data }], JSON.stringify(data));
  }
});
