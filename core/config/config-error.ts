/** One problem in the operator's config file, located by its YAML path. */
export interface ConfigProblem {
  /** The YAML path, such as `providers[1].base_url`; empty for the whole document. */
  path: string;
  message: string;
  /** 1-based line in the file, when the node exists there. */
  line?: number;
}

/** The config file cannot be used; every problem found is listed, none is a secret value. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    // A problem with the whole file (it cannot be read, it is not a mapping) is one line.
    const only = problems.length === 1 ? problems[0] : undefined;
    super(
      only !== undefined && only.path === '' && only.line === undefined
        ? `${file}: ${only.message}`
        : `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map(formatConfigProblem).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** `providers[1].base_url: expected a URL (line 12)` */
export function formatConfigProblem(problem: ConfigProblem): string {
  const where = problem.path === '' ? '(root)' : problem.path;
  return `${where}: ${problem.message}${problem.line === undefined ? '' : ` (line ${problem.line})`}`;
}

/** Renders a path the way an operator reads YAML: `providers[1].base_url`, `pricing["gx-2.5-pro"]`. */
export function formatYamlPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}
