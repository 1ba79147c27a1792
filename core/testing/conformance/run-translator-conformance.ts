import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Translator } from '../../contracts/translator.js';
import { operationResultKinds } from '../../contracts/operation-results.js';
import { translatorExportSchema } from '../../loader/translator-export-schema.js';
import { checkTranslatorCase, type TranslatorCase } from './check-translator.js';
import type { UsageReader } from './client-usage-readers.js';
import { CheckList, ConformanceError, describeThrown, type ConformanceReport } from './conformance-report.js';

/** What the translator suite runs against. */
export interface TranslatorConformanceSubject {
  /** The translator module: a path (relative to the working directory) or file URL to import, the imported module, or its default export. */
  translator: string | URL | object;
  /** Client requests with the served answers to translate back: at least one with a JSON answer, and one with a stream when both formats stream. */
  cases: TranslatorCase[];
  /** Reads the token counts of the client format's JSON answer, for a client operation the suite knows no reader of (it knows chat and Responses). */
  readUsage?: UsageReader;
}

async function importTranslator(source: TranslatorConformanceSubject['translator']): Promise<unknown> {
  if (typeof source === 'object' && !(source instanceof URL)) return 'default' in source ? (source as { default: unknown }).default : source;
  const url = source instanceof URL || /^file:/.test(source) ? String(source) : pathToFileURL(isAbsolute(source) ? source : resolve(source)).href;
  return ((await import(url)) as { default?: unknown }).default;
}

/**
 * Runs the conformance suite on a translator and answers its report; it never throws for a
 * failed check. It checks the export as the gateway's loader does, then for each case: the
 * request maps to a served operation in a form that operation's route accepts, asks for a
 * stream (with usage) exactly when the client did, and is pure; the JSON answer names the
 * client's model, states the billed usage exactly and keeps the tool call ids; the stream's
 * events are well formed, carry content from the served stream's first model output on (not
 * before: the gateway may still fail over until then) with the same characters, and pass
 * usage, affinity and errors through unchanged.
 */
export async function runTranslatorConformance(subject: TranslatorConformanceSubject): Promise<ConformanceReport> {
  const checks = new CheckList();
  let exported: unknown;
  try {
    exported = await importTranslator(subject.translator);
  } catch (error) {
    checks.fail('the translator module loads', describeThrown(error));
    return checks.report();
  }
  const shape = translatorExportSchema.safeParse(exported);
  const shapeProblem = exported === undefined ? 'the module has no default export' : shape.success ? undefined : shape.error.issues.map((issue) => issue.message).join('; ');
  if (!checks.expect('the default export is a translator (name, client, served, request, answer, stream)', shapeProblem)) return checks.report();
  const translator = exported as Translator;
  const streams = (operationResultKinds[translator.client] as readonly string[]).includes('stream') && translator.served.some((served) => (operationResultKinds[served] as readonly string[]).includes('stream'));
  checks.expect('the suite has a case with a recorded JSON answer', subject.cases.some((testCase) => testCase.answer !== undefined) ? undefined : 'add a case with answer: a recorded answer of the served operation and its usage');
  if (streams) checks.expect('the suite has a case with a recorded stream', subject.cases.some((testCase) => testCase.streamed !== undefined) ? undefined : 'add a case with streamed: a recorded stream of the served operation (decodeRecordedStream)');
  for (const testCase of subject.cases) checkTranslatorCase(checks, translator, testCase, subject.readUsage);
  return checks.report();
}

/** Runs the suite (see {@link runTranslatorConformance}) and throws a {@link ConformanceError} listing every failed check; resolves with the report when all passed. */
export async function assertTranslatorConformance(subject: TranslatorConformanceSubject): Promise<ConformanceReport> {
  const report = await runTranslatorConformance(subject);
  if (!report.passed) throw new ConformanceError(report);
  return report;
}
