import t from 'tap';
import { dashScopeSubmitError, dashScopeUpstreamParam } from '../../../../providers/wn-hx/dashscope-video-operations.js';
import { readWnVideoRequest } from '../../../../providers/wn-hx/wn-family.js';
import { videoRequest, wnLifecycleFixture } from './wn-test-helpers.js';

const flatJob = readWnVideoRequest(videoRequest({ model: 'wn2.5-t2v-preview', prompt: 'a cat', seed: 7 }));
const nestedJob = readWnVideoRequest(videoRequest({ model: 'wn2.7-i2v-2026-04-25', metadata: { input: { media: [{ type: 'first_frame', url: 'https://e.com/a.png' }] } } }));
const body = (code: string, message: string) => JSON.stringify({ request_id: 'r', code, message });

t.test('a DashScope refusal at submit is a 502 with its code, its message, and the client’s name of the field it names', async (t) => {
  const recorded = wnLifecycleFixture('failed').output;
  const error = dashScopeSubmitError(400, body(recorded.code, recorded.message), flatJob);
  t.match(error, { statusCode: 502, code: 'InvalidParameter', param: 'size', retryable: false, message: 'the upstream refused the task: The size is not match xxxxxx' });
  t.match(dashScopeSubmitError(400, body('DataInspectionFailed', 'Input data may contain inappropriate content.'), flatJob), { statusCode: 502, code: 'DataInspectionFailed', param: undefined });
  t.match(dashScopeSubmitError(400, 'not json', flatJob), { statusCode: 502, code: 'upstream_invalid_request', message: /HTTP 400/ });
});

t.test('the field is found as a dotted path or as a word of the body sent, and mapped back to the client’s name', async (t) => {
  t.equal(dashScopeUpstreamParam('parameters.prompt_extend must be a boolean', flatJob), 'smart_rewrite');
  t.equal(dashScopeUpstreamParam('input.img_url is not a valid URL', flatJob), 'image');
  t.equal(dashScopeUpstreamParam('The seed is out of range and so is the size', flatJob), 'seed', 'the first one named');
  t.equal(dashScopeUpstreamParam('The media url could not be downloaded', nestedJob), 'metadata.input.media');
  t.equal(dashScopeUpstreamParam('parameters.ratio is not supported', nestedJob), 'metadata.parameters.ratio');
  t.equal(dashScopeUpstreamParam('Required parameter(s) missing or invalid, please check the request parameters.', flatJob), undefined);
  t.equal(dashScopeUpstreamParam('prompt_extend_v2 is unknown', flatJob), undefined, 'whole words only');
});

t.test('the channel’s own trouble at submit fails over: bad key, arrears, throttling, server errors', async (t) => {
  const recorded = wnLifecycleFixture('create_error');
  t.match(dashScopeSubmitError(401, JSON.stringify(recorded), flatJob), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  t.match(dashScopeSubmitError(400, body('Arrearage', 'Access denied, please make sure your account is in good standing.'), flatJob), { code: 'upstream_auth_failed', retryable: true });
  t.match(dashScopeSubmitError(429, body('Throttling.RateQuota', 'Requests rate limit exceeded'), flatJob, 3), { statusCode: 429, retryable: true, headers: { 'retry-after': '3' } });
  t.match(dashScopeSubmitError(500, body('InternalError', 'oops'), flatJob), { statusCode: 502, code: 'upstream_error', retryable: true, message: /oops \(InternalError\)/ });
  t.match(dashScopeSubmitError(404, body('ModelNotFound', 'Model not exist.'), flatJob), { statusCode: 404, code: 'model_not_found', retryable: true });
});
