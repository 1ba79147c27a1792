import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodingAgent } from './agent-invocation.js';

/** The variable Codex reads the gateway key from (`env_key` of the provider entry). */
const keyVariable = 'MODEL_GATEWAY_API_KEY';

/**
 * Codex CLI (`@openai/codex`) as `codex exec`. The gateway is a custom entry of
 * `model_providers` in `$CODEX_HOME/config.toml` with `base_url` (the gateway's `/v1`),
 * `env_key` and `wire_api = "responses"`, chosen with `model_provider`. Analytics and
 * feedback uploads are off and the update check is skipped; `--strict-config` makes Codex
 * refuse a key it does not know, so a renamed setting fails the run instead of being ignored.
 * Commands run without its sandbox (its Linux sandbox needs namespaces a CI container may
 * not grant; the test's temporary folder is the sandbox).
 */
export const codexAgent: CodingAgent = {
  name: 'codex',
  packageName: '@openai/codex',
  binary: 'codex',
  shellCall: (command) => ({ name: 'exec_command', arguments: { cmd: command } }),
  prepare(target, directories, prompt) {
    const codexHome = join(directories.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        `model = ${JSON.stringify(target.model)}`,
        'model_provider = "model-gateway"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.model-gateway]',
        'name = "Model Gateway"',
        `base_url = ${JSON.stringify(`${target.baseUrl}/v1`)}`,
        `env_key = ${JSON.stringify(keyVariable)}`,
        'wire_api = "responses"',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[feedback]',
        'enabled = false',
        '',
      ].join('\n'),
    );
    return {
      args: ['exec', '--strict-config', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--color', 'never', '-C', directories.workdir, prompt],
      env: { CODEX_HOME: codexHome, [keyVariable]: target.apiKey },
    };
  },
};
