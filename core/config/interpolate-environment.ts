/** Receives each problem found, with the path of the string that has it. */
export type ReportProblem = (path: readonly PropertyKey[], message: string) => void;
/** Receives each environment variable whose value went into the string at `path`. */
export type ReportVariable = (path: readonly PropertyKey[], variable: string) => void;

const expression = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string of a parsed YAML document.
 * It works on parsed values, never on the raw text, so a variable's value can never inject
 * YAML structure. `$$` stands for a literal `$`. A variable that is unset and has no default
 * is a problem at that YAML path; its name is reported, never any value. `onVariable` hears
 * which variables set a value, so a value the schema then refuses can name the variable to
 * change rather than only the line (which shows `${GATEWAY_PORT:-3000}`, not what it gave).
 */
export function interpolateEnvironment(value: unknown, environment: NodeJS.ProcessEnv, report: ReportProblem, onVariable?: ReportVariable): unknown {
  const visit = (item: unknown, path: PropertyKey[]): unknown => {
    if (typeof item === 'string') {
      return item.replace(expression, (match, variable: string | undefined, fallback: string | undefined) => {
        if (match === '$$') return '$';
        const found = environment[variable as string];
        if (found !== undefined && found !== '') {
          onVariable?.(path, variable as string);
          return found;
        }
        if (fallback !== undefined) return fallback;
        report(path, `environment variable ${variable} is not set`);
        return '';
      });
    }
    if (Array.isArray(item)) return item.map((element, index) => visit(element, [...path, index]));
    if (item !== null && typeof item === 'object') {
      const result: Record<string, unknown> = {};
      for (const [key, element] of Object.entries(item)) result[key] = visit(element, [...path, key]);
      return result;
    }
    return item;
  };
  return visit(value, []);
}
