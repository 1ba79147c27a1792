/** Receives each problem found, with the path of the string that has it. */
export type ReportProblem = (path: readonly PropertyKey[], message: string) => void;

const expression = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string of a parsed YAML document.
 * It works on parsed values, never on the raw text, so a variable's value can never inject
 * YAML structure. `$$` stands for a literal `$`. A variable that is unset and has no default
 * is a problem at that YAML path; its name is reported, never any value.
 */
export function interpolateEnvironment(
  value: unknown,
  environment: NodeJS.ProcessEnv,
  report: ReportProblem,
  path: PropertyKey[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(expression, (match, variable: string | undefined, fallback: string | undefined) => {
      if (match === '$$') return '$';
      const found = environment[variable as string];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      report(path, `environment variable ${variable} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnvironment(item, environment, report, [...path, index]));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = interpolateEnvironment(item, environment, report, [...path, key]);
    return result;
  }
  return value;
}
