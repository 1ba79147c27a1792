/**
 * A fast fake gx upstream for the benchmark, run as its own process so its CPU is its own:
 * `node dist/bench/fast-gx-upstream.js` prints `listening <url>` and serves until killed.
 *
 * Its answers are the fake gx upstream's answers to the benchmark prompt (same bytes, same
 * event split), serialized once at start. Per request it only checks the route and key and
 * drains the body: no JSON parsing, no recording, no logging, so the upstream costs as
 * little as possible and the figures measure what sits in front of it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { answerGenerateContent } from '../test/fakes/gx/generate-answer.js';
import { googleCompactJson, googlePrettyJson } from '../test/fakes/gx/google-json.js';
import { benchModel, benchUpstreamKey, nativeGenerateBody } from './bench-workload.js';

const answer = answerGenerateContent(benchModel, JSON.parse(nativeGenerateBody()), 'YmVuY2gtcmVzcG9uc2U');
const jsonBody = Buffer.from(googlePrettyJson(answer.response));
const streamEvents = answer.chunks.map((chunk) => Buffer.from(`data: ${googleCompactJson(chunk)}\r\n\r\n`));
const jsonHeaders = { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(jsonBody.length) };
const streamHeaders = { 'content-type': 'text/event-stream', 'content-disposition': 'attachment' };
const notFound = Buffer.from(googlePrettyJson({ error: { code: 404, message: 'Method not found.', status: 'NOT_FOUND' } }));
const badKey = Buffer.from(googlePrettyJson({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }));

// `--pace-ms N` spaces a stream's events N ms apart, as a model generating in real time does
// (the soak benchmark holds streams open that way); 0 writes them at once.
const paceMilliseconds = Number(parseArgs({ options: { 'pace-ms': { type: 'string', default: '0' } } }).values['pace-ms']);

const generatePath = `/v1beta/models/${benchModel}:generateContent`;
const streamPath = `/v1beta/models/${benchModel}:streamGenerateContent?alt=sse`;

function answerRequest(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers['x-gx-api-key'] !== benchUpstreamKey) {
    response.writeHead(400, { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(badKey.length) }).end(badKey);
  } else if (request.url === generatePath) {
    response.writeHead(200, jsonHeaders).end(jsonBody);
  } else if (request.url === streamPath) {
    // One write per event, as gx sends them; the gateway's splitter sees real event boundaries.
    response.writeHead(200, streamHeaders);
    if (paceMilliseconds <= 0) {
      for (const event of streamEvents) response.write(event);
      response.end();
    } else {
      writePaced(response, 0);
    }
  } else {
    response.writeHead(404, { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(notFound.length) }).end(notFound);
  }
}

function writePaced(response: ServerResponse, index: number): void {
  if (response.destroyed) return;
  const event = streamEvents[index];
  if (event === undefined) {
    response.end();
    return;
  }
  response.write(event);
  setTimeout(() => writePaced(response, index + 1), paceMilliseconds);
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  // Answer once the body has been read, as a real upstream does.
  request.resume();
  request.once('end', () => answerRequest(request, response));
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
