import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../core/errors/error-codes.js';
import { authorizeModel, modelAllowed } from '../../core/pipeline/steps/authorize-model.js';
import type { PipelineServices } from '../../core/pipeline/pipeline-services.js';
import { servedRoutes } from '../../core/routing/served-routes.js';
import { quoted } from '../../core/errors/client-text.js';
import { apiTokenOf } from '../auth/route-auth.js';

/** The prefix of the native routes, whose method follows the model after a colon. */
const nativeRoute = 'POST /v1beta/models/{model}:';

/**
 * The models a token may call: `GET /v1/models[/{model}]` in the OpenAI list format and
 * `GET /v1beta/models[/{model}]` in the gx native format. Both honour `model_limits`. Each
 * model says where it can be called, from its channels' operations and the translators
 * that serve more on them: the OpenAI object's `routes` (a gateway field; the format allows
 * more fields than its four), the native object's `supportedGenerationMethods` (the native
 * format's own field for it). Each listing reads the catalog and channels in force (`state.current`).
 */
export async function modelListRoutes(app: FastifyInstance, options: { state: { readonly current: PipelineServices }; startedAt: number }): Promise<void> {
  const { state } = options;
  const tokenOf = (request: FastifyRequest) => apiTokenOf(request).token;
  const groupsOf = (request: FastifyRequest) => state.current.catalog.groupsOf(tokenOf(request).group);
  const visible = (request: FastifyRequest) => {
    const { catalog } = state.current;
    const token = tokenOf(request);
    const models = catalog.list(catalog.groupsOf(token.group));
    // An alias is listed when the limits name it or the model it stands for, as it may be called then.
    return token.model_limits_enabled ? models.filter((model) => modelAllowed(token, model, catalog.resolve(model))) : models;
  };
  const reachable = (request: FastifyRequest, model: string) => {
    const { catalog } = state.current;
    const token = tokenOf(request);
    authorizeModel(token, model, catalog.resolve(model));
    if (!catalog.serves(catalog.groupsOf(token.group), model)) throw notFound(`model ${quoted(model)} is not served to this API key's group`, 'model_not_found');
  };
  const routesOf = (id: string, groups: readonly string[]) => servedRoutes(state.current.channels, groups, state.current.catalog.resolve(id));
  const openAiModel = (id: string, groups: readonly string[]) => ({ id, object: 'model', created: options.startedAt, owned_by: 'model-gateway', routes: routesOf(id, groups) });
  const nativeModel = (id: string, groups: readonly string[]) => ({
    name: `models/${id}`,
    displayName: id,
    supportedGenerationMethods: routesOf(id, groups)
      .filter((route) => route.startsWith(nativeRoute))
      .map((route) => route.slice(nativeRoute.length)),
  });

  app.get('/v1/models', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => {
    const groups = groupsOf(request);
    return { object: 'list', data: visible(request).map((id) => openAiModel(id, groups)) };
  });
  app.get('/v1/models/:model', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => {
    const { model } = request.params as { model: string };
    reachable(request, model);
    return openAiModel(model, groupsOf(request));
  });
  app.get('/v1beta/models', { config: { auth: 'native-api-key', dialect: 'native' } }, async (request) => {
    const groups = groupsOf(request);
    return { models: visible(request).map((id) => nativeModel(id, groups)) };
  });
  app.get('/v1beta/models/:model', { config: { auth: 'native-api-key', dialect: 'native' } }, async (request) => {
    const model = (request.params as { model: string }).model.replace(/^models\//, '');
    reachable(request, model);
    return nativeModel(model, groupsOf(request));
  });
}
