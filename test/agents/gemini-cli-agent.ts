import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodingAgent } from './agent-invocation.js';

/**
 * Gemini CLI (`@google/gemini-cli`) in headless mode (`-p`). `GEMINI_API_KEY` and
 * `GOOGLE_GEMINI_BASE_URL` (the origin; it appends `/v1beta/models/...`) point it at the
 * gateway; it sends the key as `x-goog-api-key`. `~/.gemini/settings.json` selects API-key
 * auth and turns off usage statistics, telemetry and update checks (its configuration
 * reference); `GEMINI_CLI_TRUST_WORKSPACE` trusts the temporary folder, and `--approval-mode
 * yolo` runs the shell tool without a prompt.
 */
export const geminiCliAgent: CodingAgent = {
  name: 'gemini-cli',
  packageName: '@google/gemini-cli',
  binary: 'gemini',
  shellCall: (command) => ({ name: 'run_shell_command', arguments: { command, description: 'Run the command the test asked for' } }),
  prepare(target, directories, prompt) {
    const settingsFolder = join(directories.home, '.gemini');
    mkdirSync(settingsFolder, { recursive: true });
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    };
    writeFileSync(join(settingsFolder, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    return {
      args: ['-p', prompt, '-m', target.model, '--approval-mode', 'yolo', '--output-format', 'text'],
      env: {
        GEMINI_API_KEY: target.apiKey,
        GOOGLE_GEMINI_BASE_URL: target.baseUrl,
        GEMINI_CLI_HOME: directories.home,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_TELEMETRY_ENABLED: 'false',
      },
    };
  },
};
