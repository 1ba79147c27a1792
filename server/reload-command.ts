import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, formatConfigProblem } from '../core/config/config-error.js';
import { checkConfigFile } from './check-config-file.js';
import { describeReload } from './config-reloader.js';
import { pidFileOf, readPid, readReloadResult } from './reload-files.js';

/** How long `reload` waits for the gateway to report what it did. */
const answerMilliseconds = 15_000;

/**
 * `model-gateway reload`: checks the file as start would (so a broken one is reported here,
 * by path and line, and the gateway is not asked), sends SIGHUP to the pid in
 * `storage.data_dir/gateway.pid`, and waits for the gateway's `last-reload.json` to say what
 * it did. Exit 0 once reloaded (or nothing to change), 1 when the file is refused, no gateway
 * runs, or it did not answer in time.
 */
export async function reloadCommand(configFile: string, output: { out: (text: string) => void; error: (text: string) => void }): Promise<number> {
  let checked;
  try {
    checked = await checkConfigFile(configFile);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    output.error(`not reloaded, the running gateway keeps its config: ${configFile}: ${error.problems.map(formatConfigProblem).join('; ')}\n`);
    return 1;
  }
  const { storage } = checked.config;
  const pid = readPid(storage);
  if (pid === undefined) {
    output.error(`no running gateway found: ${pidFileOf(storage)} does not exist (a gateway started with this config writes it); start it with: model-gateway start --config ${configFile}\n`);
    return 1;
  }
  const sentAt = Date.now();
  try {
    process.kill(pid, 'SIGHUP');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    output.error(
      code === 'ESRCH'
        ? `no gateway runs as pid ${pid} (${pidFileOf(storage)} is left from one that stopped); start it with: model-gateway start --config ${configFile}\n`
        : `cannot signal pid ${pid} (${code ?? 'error'}): run reload as the user the gateway runs as\n`,
    );
    return 1;
  }
  for (let waited = 0; waited < answerMilliseconds; waited += 100) {
    await sleep(100);
    const result = readReloadResult(storage);
    if (result === undefined || result.pid !== pid || result.finished_at < sentAt) continue;
    const refused = result.reports.filter((report) => report.status === 'refused');
    const where = result.reports.length > 1 ? ` (${result.reports.length} workers${result.unanswered > 0 ? `, ${result.unanswered} did not answer` : ''})` : '';
    const first = result.reports[0];
    if (first === undefined) {
      output.error(`sent SIGHUP to pid ${pid}, but no worker answered: see the gateway's log\n`);
      return 1;
    }
    if (refused.length > 0) {
      output.error(`pid ${pid} refused the reload${where}, nothing changed: ${describeReload(refused[0]!)}\n`);
      return 1;
    }
    output.out(`reloaded pid ${pid}${where}: ${describeReload(first)}\n`);
    return result.unanswered > 0 ? 1 : 0;
  }
  output.error(`sent SIGHUP to pid ${pid}, but it did not report within ${answerMilliseconds / 1000} s: see the gateway's log\n`);
  return 1;
}
