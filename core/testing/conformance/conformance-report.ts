/** One check of the conformance suite. */
export interface ConformanceCheck {
  /** What was checked, as a sentence: `chat (stream): maps an upstream 429 to a retryable 429`. */
  name: string;
  passed: boolean;
  /** Why it failed, or what it saw when it passed. */
  message: string;
}

/** Everything the suite checked, in order. */
export interface ConformanceReport {
  passed: boolean;
  checks: ConformanceCheck[];
  failures: ConformanceCheck[];
}

/** Thrown by `assertConformance`: every failed check, one per line. */
export class ConformanceError extends Error {
  readonly report: ConformanceReport;

  constructor(report: ConformanceReport) {
    super(`the plugin failed ${report.failures.length} of ${report.checks.length} conformance checks:\n${report.failures.map((check) => `- ${check.name}: ${check.message}`).join('\n')}`);
    this.name = 'ConformanceError';
    this.report = report;
  }
}

/** Collects checks as a run makes them; a check that throws fails with what it threw. */
export class CheckList {
  readonly checks: ConformanceCheck[] = [];

  pass(name: string, message = 'ok'): void {
    this.checks.push({ name, passed: true, message });
  }

  fail(name: string, message: string): void {
    this.checks.push({ name, passed: false, message });
  }

  /** Records one check: passed unless `problem` names what is wrong. */
  expect(name: string, problem: string | undefined, seen = 'ok'): boolean {
    if (problem === undefined) this.pass(name, seen);
    else this.fail(name, problem);
    return problem === undefined;
  }

  report(): ConformanceReport {
    const failures = this.checks.filter((check) => !check.passed);
    return { passed: failures.length === 0, checks: this.checks, failures };
  }
}

/** A thrown value in words, for a failure message. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown; statusCode?: unknown }).code;
    const status = (error as { statusCode?: unknown }).statusCode;
    return `${error.name}${status === undefined ? '' : ` ${String(status)}`}${code === undefined ? '' : ` ${String(code)}`}: ${error.message}`;
  }
  return String(error);
}
