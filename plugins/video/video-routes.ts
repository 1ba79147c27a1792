import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { emptyUsage } from '../../core/contracts/usage.js';
import { videoSubmitRequestSchema, type VideoSubmitRequest } from '../../core/contracts/video-requests.js';
import { invalidRequest } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { TaskService } from '../../core/tasks/task-service.js';
import { taskView, type TaskRecord } from '../../core/tasks/task-record.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { clientAbortSignal } from '../http/client-abort-signal.js';
import { gatewayAddress, type GatewayAddress } from '../http/gateway-address.js';
import { readJsonOrMultipart } from '../http/read-multipart-form.js';
import { sendInvocationOutcome } from '../model-routes/send-invocation-outcome.js';
import { downloadRecord } from './download-record.js';
import { openAiVideoObject } from './openai-video-object.js';
import { modelInvocation } from '../model-routes/model-invocation.js';
import { apiTokenOf } from '../auth/route-auth.js';

const tokenOf = (request: FastifyRequest) => apiTokenOf(request).token;

/**
 * A succeeded task whose upstream gave no public address (its video needs the channel's key)
 * gets the gateway's own content route as its `url`, so the spec's `url` is there on success;
 * fetching it takes the caller's API key. The link is built by {@link gatewayAddress}: on
 * `server.public_url`, else on the request's host only when it is allowed, else relative, so
 * a forged Host header cannot send a client's key elsewhere.
 */
function withContentUrl(record: TaskRecord, request: FastifyRequest, address: GatewayAddress): TaskRecord {
  if (record.status !== 'succeeded' || record.url !== undefined) return record;
  return { ...record, url: address(request, `/v1/video/generations/${record.id}/content`) };
}

/**
 * The video task routes of spec part 2: submit and poll on `/v1/video/generations`, the
 * download record and the moderation record, and the OpenAI-style `/v1/videos` pair. Core
 * owns the task records, polling and billing; providers only submit, report and fetch.
 * `submissionChecks` run before the two submit routes' handlers only (the asset library's
 * check of `asset://` references), not on every route.
 */
export async function videoRoutes(
  app: FastifyInstance,
  options: { tasks: TaskService; config: GatewayConfig; submissionChecks?: readonly preHandlerHookHandler[] },
): Promise<void> {
  const { tasks, config } = options;
  // A fresh options object per route: what edits one route's options (route-auth's onRoute hook) must not reach the other.
  const submitRoute = () => ({ config: { auth: 'api-key', dialect: 'openai' } as const, preHandler: [...(options.submissionChecks ?? [])] });
  const address = gatewayAddress(config.server);
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.security.media.max_bytes, files: 8, fields: 64, fieldSize: 1024 * 1024, parts: 80 },
  });

  /** Submits the request's body, with `fields` laid over it (the remix route names the source task itself). */
  const submit = async (request: FastifyRequest, reply: Parameters<typeof clientAbortSignal>[0], fields: Record<string, unknown> = {}): Promise<TaskRecord> => {
    const input = await readJsonOrMultipart(request, config.security.media.max_bytes);
    const body: VideoSubmitRequest = parseClientInput(videoSubmitRequestSchema, typeof input === 'object' && input !== null ? { ...input, ...fields } : input);
    const remixOf = await remixSource(body, request);
    return tasks.submit(modelInvocation(request, reply, {
      operation: 'video.submit',
      request: remixOf === undefined ? body : { ...body, remix_from_video_id: remixOf.handle },
      pinTo: remixOf?.channel,
      model: body.model,
      stream: false,
      // Every video family prices from its own fields, so its provider estimates; a family
      // without an estimate is priced per call.
      estimate: emptyUsage('estimated'),
    }), remixOf?.id);
  };

  /**
   * The caller's finished task a `remix_from_video_id` names: the provider gets that task's
   * upstream handle instead of the gateway's id, and the remix goes to the channel holding it.
   */
  const remixSource = async (body: VideoSubmitRequest, request: FastifyRequest): Promise<TaskRecord | undefined> => {
    const id = body.remix_from_video_id;
    if (id === undefined) return undefined;
    if (typeof id !== 'string' || !id.startsWith('video_')) throw invalidRequest('remix_from_video_id: expected the id of one of your video tasks (video_…)', { param: 'remix_from_video_id' });
    const source = await tasks.find(tokenOf(request), id, request.id).catch((error: unknown) => {
      throw GatewayError.is(error) && error.statusCode === 404 ? invalidRequest(`remix_from_video_id: ${error.message}`, { param: 'remix_from_video_id' }) : error;
    });
    if (source.status !== 'succeeded') throw invalidRequest(`remix_from_video_id: the task is ${source.status}; remix it once it has succeeded`, { param: 'remix_from_video_id' });
    return source;
  };

  app.post('/v1/video/generations', submitRoute(), async (request, reply) => {
    const record = await submit(request, reply);
    return { task_id: record.id, status: 'submitted', format: 'mp4', model: record.model, created_at: record.created_at };
  });

  app.get('/v1/video/generations/download', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const id = (request.query as { id?: unknown }).id;
    if (typeof id !== 'string' || id === '') throw invalidRequest('id: required; pass the task id as ?id=video_…', { param: 'id' });
    const record = await tasks.find(tokenOf(request), id, request.id);
    if (record.status !== 'succeeded') {
      throw invalidRequest(`the task is ${record.status}; download it once it has succeeded`, { param: 'id' });
    }
    const result = await tasks.ask(record, 'video.content', request.id, clientAbortSignal(reply));
    return downloadRecord(record, result, config.tasks.max_download_mb * 1024 * 1024);
  });

  app.get('/v1/video/generations/moderation-result/:task_id', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const record = await tasks.find(tokenOf(request), (request.params as { task_id: string }).task_id, request.id);
    const result = await tasks.ask(record, 'video.moderation', request.id, clientAbortSignal(reply));
    return sendInvocationOutcome(reply, { kind: 'json', status: result.status ?? 200, body: result.body, contentType: result.contentType });
  });

  app.get('/v1/video/generations/:task_id', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => {
    const record = await tasks.find(tokenOf(request), (request.params as { task_id: string }).task_id, request.id);
    return taskView(withContentUrl(record, request, address));
  });

  /** The finished video's bytes, as they arrive from the upstream. */
  const sendContent = async (request: FastifyRequest, reply: Parameters<typeof clientAbortSignal>[0], id: string) => {
    const record = await tasks.find(tokenOf(request), id, request.id);
    if (record.status !== 'succeeded') throw invalidRequest(`the task is ${record.status}; fetch its video once it has succeeded`);
    const result = await tasks.ask(record, 'video.content', request.id, clientAbortSignal(reply));
    return sendInvocationOutcome(reply, { kind: 'bytes', contentType: result.contentType, readable: Readable.from(result.body) });
  };

  // No automatic HEAD route: it would download the whole video from the upstream to send none of it.
  app.get('/v1/video/generations/:task_id/content', { config: { auth: 'api-key', dialect: 'openai' }, exposeHeadRoute: false }, async (request, reply) =>
    sendContent(request, reply, (request.params as { task_id: string }).task_id),
  );

  app.post('/v1/videos', submitRoute(), async (request, reply) => openAiVideoObject(await submit(request, reply)));

  app.get('/v1/videos/:video_id', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => {
    const record = await tasks.find(tokenOf(request), (request.params as { video_id: string }).video_id, request.id);
    return openAiVideoObject(withContentUrl(record, request, address));
  });

  // The official SDK's `videos.remix`: the source's model, and the source named by the path.
  app.post('/v1/videos/:video_id/remix', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const sourceId = (request.params as { video_id: string }).video_id;
    const source = await tasks.find(tokenOf(request), sourceId, request.id);
    return openAiVideoObject(await submit(request, reply, { model: source.model, remix_from_video_id: sourceId }));
  });

  app.get('/v1/videos/:video_id/content', { config: { auth: 'api-key', dialect: 'openai' }, exposeHeadRoute: false }, async (request, reply) =>
    sendContent(request, reply, (request.params as { video_id: string }).video_id),
  );
}
