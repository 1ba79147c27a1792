import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { DemoArgumentError, demoUsage, parseDemoArguments } from '../../../demo/demo-arguments.js';
import { typescriptLoader } from '../../helpers/cli-gateway-process.js';

const runDemo = promisify(execFile);
const demoScript = fileURLToPath(new URL('../../../demo/run-demo.ts', import.meta.url));

/** The demo as a process with `args`: its exit code and what it wrote. */
async function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await runDemo(process.execPath, ['--import', typescriptLoader(), demoScript, ...args], { env: { ...process.env, DEMO_PORT: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

t.test('the demo listens on 127.0.0.1:3000 unless told otherwise, DEMO_PORT before the default', async (t) => {
  t.same(parseDemoArguments([], {}), { help: false, host: '127.0.0.1', port: 3000 });
  t.same(parseDemoArguments([], { DEMO_PORT: '4100' }), { help: false, host: '127.0.0.1', port: 4100 });
  t.same(parseDemoArguments(['--port', '0', '--host', '::1'], { DEMO_PORT: '4100' }), { help: false, host: '::1', port: 0 }, '--port wins over DEMO_PORT');
});

t.test('a port that is not one and an unknown option are refused in one line that says what to write', async (t) => {
  t.throws(() => parseDemoArguments(['--port', 'abc'], {}), new DemoArgumentError('--port expects a port from 0 to 65535 (0 picks a free one), not "abc"'));
  t.throws(() => parseDemoArguments(['--port', '70000'], {}), new DemoArgumentError('--port expects a port from 0 to 65535 (0 picks a free one), not "70000"'));
  t.throws(() => parseDemoArguments([], { DEMO_PORT: '-1' }), new DemoArgumentError('DEMO_PORT expects a port from 0 to 65535 (0 picks a free one), not "-1"'));
  t.throws(() => parseDemoArguments(['--prot', '8080'], {}), new DemoArgumentError("Unknown option '--prot'; the demo takes --port N, --host ADDRESS and --help"));
});

t.test('npm run demo -- --help prints the usage and exits 0; a bad argument exits 2 with one line and no stack', async (t) => {
  const help = await demo(['--help']);
  t.equal(help.code, 0);
  t.equal(help.stdout, demoUsage);
  const bad = await demo(['--port', 'eighty']);
  t.equal(bad.code, 2);
  t.equal(bad.stderr, 'demo: --port expects a port from 0 to 65535 (0 picks a free one), not "eighty"\n');
  t.equal(bad.stdout, '', 'nothing was started');
});
