import type { CodingAgent } from './agent-invocation.js';

/**
 * Claude Code (`@anthropic-ai/claude-code`) in print mode. Only `ANTHROPIC_BASE_URL` (the
 * origin: it appends `/v1/messages` itself) and `ANTHROPIC_API_KEY` point it at the gateway;
 * `ANTHROPIC_MODEL` names the model, and the small-model setting names the same one, since
 * Claude Code otherwise sends its background requests (titles, summaries) to a Haiku model
 * the gateway does not serve. The rest switches off what would call its vendor's servers
 * (telemetry, error reports, update checks: the variables of its settings documentation).
 * `--allowedTools Bash` lets the shell tool run without a prompt; the skip-permissions flag
 * is refused to root, which CI is.
 */
export const claudeCodeAgent: CodingAgent = {
  name: 'claude-code',
  packageName: '@anthropic-ai/claude-code',
  binary: 'claude',
  shellCall: (command) => ({ name: 'Bash', arguments: { command, description: 'Run the command the test asked for' } }),
  prepare(target, directories, prompt) {
    return {
      args: ['-p', prompt, '--model', target.model, '--allowedTools', 'Bash', '--output-format', 'text'],
      env: {
        ANTHROPIC_BASE_URL: target.baseUrl,
        ANTHROPIC_API_KEY: target.apiKey,
        ANTHROPIC_MODEL: target.model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: target.model,
        CLAUDE_CONFIG_DIR: `${directories.home}/.claude`,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    };
  },
};
