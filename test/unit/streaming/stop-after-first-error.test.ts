import t from 'tap';
import { unavailable, type StreamOutput } from '../../../core/index.js';
import { stopAfterFirstError, streamFailure } from '../../../core/kit/index.js';

const event = (data: string): StreamOutput => ({ type: 'event', data, content: true });

t.test('a decoder is silent from its first error on, frames and end alike', async (t) => {
  const error = unavailable('broken');
  const decoder = stopAfterFirstError({
    push: (frame) => (frame.data === 'bad' ? [event('before'), ...streamFailure(error)] : [event(frame.data)]),
    end: () => [event('end')],
  });
  t.strictSame(decoder.push({ data: 'a' }), [event('a')]);
  t.strictSame(decoder.push({ data: 'bad' }), [event('before'), { type: 'error', error }], 'the outputs with the error still go out');
  t.strictSame(decoder.push({ data: 'b' }), []);
  t.strictSame(decoder.end(), []);
});

t.test('a decoder that never fails ends as it would without the wrapper', async (t) => {
  const decoder = stopAfterFirstError({ push: (frame) => [event(frame.data)], end: () => [event('end')] });
  t.strictSame(decoder.push({ data: 'a' }), [event('a')]);
  t.strictSame(decoder.end(), [event('end')]);
});
