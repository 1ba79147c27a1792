import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../core/errors/error-codes.js';
import { authorizeModel } from '../../core/pipeline/steps/authorize-model.js';
import type { ModelCatalog } from '../../core/routing/model-catalog.js';
import { quoted } from '../../core/errors/client-text.js';
import { apiTokenOf } from '../auth/route-auth.js';

/**
 * The models a token may call: `GET /v1/models[/{model}]` in the OpenAI list format and
 * `GET /v1beta/models[/{model}]` in the gx native format. Both honour `model_limits`.
 */
export async function modelListRoutes(app: FastifyInstance, options: { catalog: ModelCatalog; startedAt: number }): Promise<void> {
  const { catalog } = options;
  const tokenOf = (request: FastifyRequest) => apiTokenOf(request).token;
  const visible = (request: FastifyRequest) => {
    const token = tokenOf(request);
    const models = catalog.list(catalog.groupsOf(token.group));
    return token.model_limits_enabled ? models.filter((model) => token.model_limits.includes(model)) : models;
  };
  const reachable = (request: FastifyRequest, model: string) => {
    const token = tokenOf(request);
    authorizeModel(token, model);
    if (!catalog.serves(catalog.groupsOf(token.group), model)) throw notFound(`model ${quoted(model)} is not served to this API key's group`, 'model_not_found');
  };
  const openAiModel = (id: string) => ({ id, object: 'model', created: options.startedAt, owned_by: 'model-gateway' });
  const nativeModel = (id: string) => ({ name: `models/${id}`, displayName: id });

  app.get('/v1/models', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => ({ object: 'list', data: visible(request).map(openAiModel) }));
  app.get('/v1/models/:model', { config: { auth: 'api-key', dialect: 'openai' } }, async (request) => {
    const { model } = request.params as { model: string };
    reachable(request, model);
    return openAiModel(model);
  });
  app.get('/v1beta/models', { config: { auth: 'native-api-key', dialect: 'native' } }, async (request) => ({ models: visible(request).map(nativeModel) }));
  app.get('/v1beta/models/:model', { config: { auth: 'native-api-key', dialect: 'native' } }, async (request) => {
    const model = (request.params as { model: string }).model.replace(/^models\//, '');
    reachable(request, model);
    return nativeModel(model);
  });
}
