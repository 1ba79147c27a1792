import { defineProvider } from '../../core/index.js';
import { googleApiOptionsSchema, type GoogleApiOptions } from '../shared/google-api/google-api.js';
import { readVoRequest, type VoVideoPlan } from './read-vo-request.js';
import { estimateVoUsage, VoTaskNotes } from './vo-billing.js';
import { createVoVideoOperations } from './vo-video-operations.js';

/**
 * The vo family: video tasks on the upstream's long-running operations (`predictLongRunning`,
 * then polls of the operation), and the finished video fetched with the channel's key.
 */
export default defineProvider<GoogleApiOptions, { 'video.submit': VoVideoPlan }>({
  apiVersion: 2,
  name: 'vo',
  options: googleApiOptionsSchema,
  prepare: { 'video.submit': readVoRequest },
  create: (_options, host) => ({
    operations: createVoVideoOperations(host, new VoTaskNotes(host.keyValueStore('tasks'), host.logger)),
    estimate: { 'video.submit': estimateVoUsage },
  }),
});
