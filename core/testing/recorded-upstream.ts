import { startFakeServer, type RecordedRequest } from './fake-server.js';
import { playConnectionBehaviour, scriptedFake, type ScriptedBehaviour, type ScriptedFake } from './scripted-behaviour.js';
import { sendPieces } from './send-pieces.js';

/** One answer as an upstream recorded it. */
export interface RecordedAnswer {
  /** Defaults to 200. */
  status?: number;
  /** `content-type` defaults to `application/json`, or `text/event-stream` for an `sse` answer. */
  headers?: Record<string, string>;
  /** The body: text exactly as recorded, or an object sent as JSON. */
  body: string | object;
  /** A server-sent event stream, sent one event (up to its blank line) at a time. */
  sse?: boolean;
}

/** Where a recorded answer is given. */
export interface RecordedRoute {
  /** Any method when left out. */
  method?: string;
  /** The request path without its query string: exactly, or matching the expression. */
  path: string | RegExp;
  /** One answer, or answers given in turn, the last one repeating (a task's states as it is polled). */
  answer: RecordedAnswer | RecordedAnswer[];
}

/** What a recorded upstream serves. */
export interface RecordedUpstreamOptions {
  routes: RecordedRoute[];
  /** The upstream's own error answer for an HTTP status (a recorded error body), for a scripted `error` and for a request no route matches. */
  errorAnswer: (status: number, message: string) => RecordedAnswer;
}

const matches = (route: RecordedRoute, request: RecordedRequest): boolean =>
  (route.method === undefined || route.method.toUpperCase() === request.method) &&
  (typeof route.path === 'string' ? route.path === request.path : route.path.test(request.path));

/** An SSE body in its events, each with the blank line that ends it, so a stall or a reset falls between events. */
const sseEvents = (text: string): string[] => text.split(/(?<=\r?\n\r?\n)/).filter((event) => event !== '');

/**
 * A fake upstream that answers from recorded fixtures: each route gives its recorded answers
 * in turn, and the scripted behaviours of {@link ScriptedBehaviour} apply to it as to any
 * fake (`error` answers with `errorAnswer`, `status` with `body`, stalls, resets, a truncated
 * stream). The conformance suite drives a plugin through one.
 */
export async function startRecordedUpstream(options: RecordedUpstreamOptions): Promise<ScriptedFake<ScriptedBehaviour>> {
  const queue: ScriptedBehaviour[] = [];
  const turns = new Map<RecordedRoute, number>();
  const server = await startFakeServer(async (exchange) => {
    const behaviour = queue.shift() ?? {};
    if (!(await playConnectionBehaviour(exchange, behaviour))) return;
    let answer: RecordedAnswer;
    if (behaviour.error !== undefined) answer = options.errorAnswer(behaviour.error, behaviour.message ?? `scripted error ${behaviour.error}`);
    else if (behaviour.status !== undefined) answer = { status: behaviour.status, body: (behaviour.body as string | object | undefined) ?? options.errorAnswer(behaviour.status, behaviour.message ?? `scripted status ${behaviour.status}`).body };
    else {
      const route = options.routes.find((candidate) => matches(candidate, exchange.request));
      if (route === undefined) answer = options.errorAnswer(404, `no recorded answer for ${exchange.request.method} ${exchange.request.path}`);
      else {
        const answers = Array.isArray(route.answer) ? route.answer : [route.answer];
        const turn = turns.get(route) ?? 0;
        turns.set(route, turn + 1);
        answer = answers[Math.min(turn, answers.length - 1)]!;
      }
    }
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const sse = answer.sse === true;
    const headers = { 'content-type': sse ? 'text/event-stream' : 'application/json', ...answer.headers };
    await sendPieces(exchange, { status: answer.status ?? 200, headers, pieces: sse ? sseEvents(text) : [text], streamed: sse }, behaviour);
  });
  const fake = scriptedFake(server, queue);
  return { ...fake, reset: () => (fake.reset(), turns.clear()) };
}
