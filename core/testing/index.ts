/**
 * The testing kit for plugin authors, published as `model-gateway/testing`: a scriptable fake
 * upstream server, piecewise sending of its answers, and the behaviours a test can script
 * (errors, stalls, resets, delays, truncated streams), and the conformance suites of provider
 * plugins and of translators. It knows no vendor; the gateway's own
 * fakes of real vendors build on it and live in `test/fakes/`, outside the published package.
 */
export { pause, startFakeServer, writeFlushed, type FakeExchange, type FakeServer, type RecordedRequest } from './fake-server.js';
export { playConnectionBehaviour, scriptedFake, type ScriptedBehaviour, type ScriptedFake } from './scripted-behaviour.js';
export { sendPieces, type PiecewiseAnswer } from './send-pieces.js';
export { startRecordedUpstream, type RecordedAnswer, type RecordedRoute, type RecordedUpstreamOptions } from './recorded-upstream.js';
export { assertConformance, runConformance, type ConformanceSubject } from './conformance/run-conformance.js';
export type { ConformanceCase } from './conformance/check-operation.js';
export { ConformanceError, type ConformanceCheck, type ConformanceReport } from './conformance/conformance-report.js';
export { assertTranslatorConformance, runTranslatorConformance, type TranslatorConformanceSubject } from './conformance/run-translator-conformance.js';
export type { TranslatorCase } from './conformance/check-translator.js';
export type { UsageCounts, UsageReader } from './conformance/client-usage-readers.js';
export { decodeRecordedStream } from './conformance/decode-recorded-stream.js';
