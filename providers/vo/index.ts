import { defineProvider, googleApiOptionsSchema, type GoogleApiOptions } from '../../core/index.js';
import { estimateVoUsage } from './estimate-vo-usage.js';
import { readVoRequest, type VoVideoPlan } from './read-vo-request.js';
import { createVoContentOperation } from './vo-content-operation.js';
import { createVoStatusOperation } from './vo-status-operation.js';
import { createVoSubmitOperation } from './vo-submit-operation.js';
import { VoTaskNotes } from './vo-task-notes.js';

/**
 * The vo family: video tasks on the upstream's long-running operations (`predictLongRunning`,
 * then polls of the operation), and the finished video fetched with the channel's key.
 */
export default defineProvider<GoogleApiOptions, { 'video.submit': VoVideoPlan }>({
  apiVersion: 2,
  name: 'vo',
  options: googleApiOptionsSchema,
  prepare: { 'video.submit': readVoRequest },
  create: (_options, host) => {
    const notes = new VoTaskNotes(host.keyValueStore('tasks'), host.logger);
    return {
      operations: {
        'video.submit': createVoSubmitOperation(host, notes),
        'video.status': createVoStatusOperation(host, notes),
        'video.content': createVoContentOperation(host),
      },
      estimate: { 'video.submit': estimateVoUsage },
    };
  },
});
