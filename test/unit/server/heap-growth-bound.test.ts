import t from 'tap';
import { boundHeapGrowth, defaultHeapGrowingPercent } from '../../../server/heap-growth-bound.js';

function bound(execArgv: string[]): { inForce: number | undefined; flags: string[] } {
  const flags: string[] = [];
  const inForce = boundHeapGrowth(execArgv, (flag) => flags.push(flag));
  return { inForce, flags };
}

t.test('a process started without a heap growth flag gets the gateway default', async (t) => {
  t.strictSame(bound([]), { inForce: defaultHeapGrowingPercent, flags: [`--heap-growing-percent=${defaultHeapGrowingPercent}`] });
  t.strictSame(bound(['--enable-source-maps', '--max-old-space-size=2048']).flags, [`--heap-growing-percent=${defaultHeapGrowingPercent}`]);
});

t.test("the operator's own --heap-growing-percent is left alone, in either spelling", async (t) => {
  t.strictSame(bound(['--heap-growing-percent=0']), { inForce: undefined, flags: [] });
  t.strictSame(bound(['--enable-source-maps', '--heap-growing-percent=100']), { inForce: undefined, flags: [] });
  t.strictSame(bound(['--heap_growing_percent=80']), { inForce: undefined, flags: [] });
});
