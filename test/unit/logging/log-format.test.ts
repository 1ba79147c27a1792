import t from 'tap';
import { logFormat } from '../../../core/logging/log-destination.js';

t.test('logs are readable on a terminal and JSON anywhere else, unless LOG_FORMAT says otherwise', async (t) => {
  t.equal(logFormat({}, true), 'pretty');
  t.equal(logFormat({}, false), 'json');
  t.equal(logFormat({ LOG_FORMAT: 'json' }, true), 'json');
  t.equal(logFormat({ LOG_FORMAT: ' Pretty ' }, false), 'pretty');
  t.throws(() => logFormat({ LOG_FORMAT: 'yaml' }, false), { message: /LOG_FORMAT is "yaml"; set it to json or pretty/ });
});
