import { parseArgs } from 'node:util';

/** What `npm run demo -- …` was asked for: the address to listen on, or the help. */
export type DemoArguments = { help: true } | { help: false; host: string; port: number };

/** The demo's help, printed by `--help`. */
export const demoUsage = `Usage: npm run demo -- [--port N] [--host ADDRESS]

Starts the gateway in front of fake upstreams for every model family and prints a curl line per route.

Options:
  --port N          the port to listen on (default $DEMO_PORT or 3000; 0 picks a free port)
  --host ADDRESS    the address to listen on (default 127.0.0.1)
  --help            show this help
`;

/** A demo argument that cannot be used; its message is one line saying what to write instead. */
export class DemoArgumentError extends Error {}

/** Reads the demo's arguments; throws {@link DemoArgumentError} for an unknown option or a port that is not one. */
export function parseDemoArguments(argv: readonly string[], environment: NodeJS.ProcessEnv = process.env): DemoArguments {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    // node:util says e.g. "Unknown option '--prot'. To specify a positional argument starting with a '-', …": keep its first sentence.
    const first = (error as Error).message.split('. ')[0];
    throw new DemoArgumentError(`${first}; the demo takes --port N, --host ADDRESS and --help`);
  }
  if (values.help === true) return { help: true };
  // An empty DEMO_PORT is an unset one, as a shell's `DEMO_PORT= npm run demo` means.
  const portText = values.port ?? (environment.DEMO_PORT === '' ? undefined : environment.DEMO_PORT) ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    const source = values.port === undefined ? 'DEMO_PORT' : '--port';
    throw new DemoArgumentError(`${source} expects a port from 0 to 65535 (0 picks a free one), not ${JSON.stringify(portText)}`);
  }
  return { help: false, host: values.host ?? '127.0.0.1', port };
}
