import t from 'tap';
import { multiInstanceCases } from '../helpers/multi-instance-cases.js';
import { startMultiInstanceScene } from '../helpers/multi-instance-scene.js';
import { storageFor } from '../helpers/test-config.js';

// Three gateway processes, as on three machines: each its own port and data directory, one
// Redis key prefix and one encryption key between them. They start once for every case.

const scene = await startMultiInstanceScene(t, storageFor(t, 'redis'), [1, 1, 1]);

t.test('three processes on one Redis', async (t) => multiInstanceCases(t, scene));
