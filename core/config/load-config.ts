import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError, formatYamlPath, type ConfigProblem } from './config-error.js';
import { lineOf } from './config-lines.js';
import { gatewayConfigSchema, type GatewayConfig } from './config-schema.js';
import { interpolateEnvironment } from './interpolate-environment.js';
import { shippedPriceCatalog } from '../billing/price-catalog.js';
import { valueAtPath } from '../validation/value-at-path.js';

/** A validated config and the file it came from (plugin paths resolve against it). */
export interface LoadedConfig {
  config: GatewayConfig;
  file: string;
}

/**
 * Reads, interpolates and validates a config file, and the shipped price catalog when the
 * config uses it (so a broken catalog stops the start and `config check`, not a request);
 * throws {@link ConfigError} listing every problem.
 */
export function loadConfigFile(file: string, environment: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [{ path: '', message: unreadableFileMessage((error as NodeJS.ErrnoException).code) }]);
  }
  const config = parseConfigText(text, file, environment);
  if (config.billing.price_catalog) shippedPriceCatalog();
  return { config, file };
}

/** Why the config file cannot be read, and what to change: the file given by `--config` or `GATEWAY_CONFIG`. */
function unreadableFileMessage(code: string | undefined): string {
  const reason = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' ? 'this user may not read it' : code === 'EISDIR' ? 'it is a folder' : 'reading it failed';
  return `cannot read the file (${code ?? 'error'}: ${reason}); pass the config's path with --config FILE or GATEWAY_CONFIG (the default is config/gateway.yaml)`;
}

/** Parses config text; `file` only names the source in errors. */
export function parseConfigText(text: string, file: string, environment: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new ConfigError(
      file,
      document.errors.map((error) => ({
        path: '',
        message: `invalid YAML: ${error.message.split('\n')[0]}`,
        line: lineCounter.linePos(error.pos[0]).line,
      })),
    );
  }
  const raw: unknown = document.toJS() ?? {};
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(file, [{ path: '', message: 'expected a mapping of settings at the top level' }]);
  }
  /** The variables whose values went into each path's string, by formatted path. */
  const variables = new Map<string, string[]>();
  const interpolated = interpolateEnvironment(
    raw,
    environment,
    (path, message) => problems.push({ path: formatYamlPath(path), message, line: lineOf(document, lineCounter, path) }),
    (path, variable) => {
      const key = formatYamlPath(path);
      variables.set(key, [...(variables.get(key) ?? []), variable]);
    },
  );
  const result = gatewayConfigSchema.safeParse(interpolated);
  if (!result.success) {
    // A variable that was unset already explains what is wrong with its value.
    const reported = new Set(problems.map((problem) => problem.path));
    for (const problem of toProblems(result.error, interpolated, document, lineCounter)) {
      if (reported.has(problem.path)) continue;
      // The value came from the environment: name the variable (never its value, which may be a secret).
      const from = variables.get(problem.path);
      problems.push(from === undefined ? problem : { ...problem, message: `${problem.message} (from the environment: ${from.join(', ')})` });
    }
  }
  if (problems.length > 0) throw new ConfigError(file, problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return result.data as GatewayConfig;
}

function toProblems(error: z.ZodError, input: unknown, document: Document, lineCounter: LineCounter): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        problems.push({ path: formatYamlPath(path), message: 'unknown key', line: lineOf(document, lineCounter, path) });
      }
      continue;
    }
    problems.push({
      path: formatYamlPath(issue.path),
      message: issue.code === 'invalid_type' && valueAtPath(input, issue.path) === undefined ? 'required' : issue.message,
      line: lineOf(document, lineCounter, issue.path),
    });
  }
  return problems;
}
