import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodingAgent } from './agent-invocation.js';

/** The variable the opencode provider entry reads the gateway key from. */
const keyVariable = 'MODEL_GATEWAY_API_KEY';

/**
 * opencode (`opencode-ai`) as `opencode run`. The gateway is a provider of its config file
 * (`$XDG_CONFIG_HOME/opencode/opencode.json`) on the bundled `@ai-sdk/openai-compatible`
 * package, with `options.baseURL` (the gateway's `/v1`) and `options.apiKey`, and the model
 * listed under it; it speaks chat completions. The `OPENCODE_DISABLE_*` switches stop the
 * models catalogue download, update checks, LSP downloads and default plugins, which would
 * reach the network; `permission.bash: allow` runs the shell tool without a prompt.
 * `--title` names the session, so opencode sends no title request of its own before the turn
 * (fixture opencode/untitled-plain.json shows that request): each run then sends exactly the
 * turn's requests, which the tests script one by one.
 */
export const opencodeAgent: CodingAgent = {
  name: 'opencode',
  packageName: 'opencode-ai',
  binary: 'opencode',
  shellCall: (command) => ({ name: 'bash', arguments: { command, description: 'Run the command the test asked for' } }),
  prepare(target, directories, prompt) {
    const configFolder = join(directories.home, '.config', 'opencode');
    mkdirSync(configFolder, { recursive: true });
    const config = {
      provider: {
        'model-gateway': {
          npm: '@ai-sdk/openai-compatible',
          name: 'Model Gateway',
          options: { baseURL: `${target.baseUrl}/v1`, apiKey: `{env:${keyVariable}}` },
          models: { [target.model]: { name: target.model } },
        },
      },
      model: `model-gateway/${target.model}`,
      small_model: `model-gateway/${target.model}`,
      autoupdate: false,
      share: 'disabled',
      permission: { bash: 'allow', edit: 'allow' },
    };
    writeFileSync(join(configFolder, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
    return {
      args: ['run', '--title', 'Model Gateway agent test', '--model', `model-gateway/${target.model}`, prompt],
      env: {
        [keyVariable]: target.apiKey,
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
      },
    };
  },
};
