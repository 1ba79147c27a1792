import t from 'tap';
import { dashScopeSubmitError, dashScopeUpstreamParam } from '../../../../providers/wn-hx/dashscope-video-operations.js';
import { readHxVideoRequest } from '../../../../providers/wn-hx/hx-family.js';
import { clientBodyOf, hxLifecycleFixture, hxRequestFixture, videoRequest } from './hx-test-helpers.js';

const job = readHxVideoRequest(videoRequest(clientBodyOf(hxRequestFixture('r2v'))));
const body = (code: string, message: string) => JSON.stringify({ request_id: 'r', code, message });

t.test('a DashScope refusal at submit is a 502 with its code, message and the metadata path of the field it names', async (t) => {
  t.match(dashScopeSubmitError(400, body('InvalidParameter', 'parameters.ratio 9:16 is not supported'), job), {
    statusCode: 502,
    code: 'InvalidParameter',
    param: 'metadata.parameters.ratio',
    retryable: false,
    message: 'the upstream refused the task: parameters.ratio 9:16 is not supported',
  });
  t.equal(dashScopeUpstreamParam('The media url can not be downloaded', job), 'metadata.input.media');
  t.equal(dashScopeUpstreamParam(hxLifecycleFixture('failed').output.message, job), undefined, 'size was not sent');
  t.match(dashScopeSubmitError(400, body('DataInspectionFailed', 'Input data may contain inappropriate content.'), job), { code: 'DataInspectionFailed', retryable: false });
});

t.test('the channel’s own trouble at submit fails over', async (t) => {
  t.match(dashScopeSubmitError(401, JSON.stringify(hxLifecycleFixture('create_error')), job), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  t.match(dashScopeSubmitError(400, body('Arrearage', 'Access denied'), job), { code: 'upstream_auth_failed', retryable: true });
  t.match(dashScopeSubmitError(503, body('ModelUnavailable', 'busy'), job), { statusCode: 502, code: 'upstream_error', retryable: true });
  t.match(dashScopeSubmitError(429, body('Throttling', 'slow'), job), { statusCode: 429, retryable: true });
});
