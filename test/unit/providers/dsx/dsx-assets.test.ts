import { createHash } from 'node:crypto';
import t from 'tap';
import type { JsonResult, TaskAccepted } from '../../../../core/index.js';
import { callDsxAssetAction } from '../../../../providers/dsx/call-dsx-asset-api.js';
import dsxPlugin from '../../../../providers/dsx/index.js';
import { fromVolcAsset } from '../../../../providers/dsx/dsx-asset-operations.js';
import { prepareDsxSubmission } from '../../../../providers/dsx/dsx-submission.js';
import { signVolcRequest, volcDate } from '../../../../providers/dsx/sign-volc-request.js';
import { dsxCall, rejected, stubHost, upstreamAnswer } from './fixtures/read-dsx-fixtures.js';

const assetsOptions = { base_url: 'https://ark.example-openapi.com/', access_key_id: 'AK', secret_access_key: 'SK' };
const options = dsxPlugin.options.parse({ assets: assetsOptions });
const envelope = (result: unknown, error?: { Code: string; Message: string }) => ({
  ResponseMetadata: { RequestId: 'r', Action: 'X', Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing', ...(error === undefined ? {} : { Error: error }) },
  ...(error === undefined ? { Result: result } : {}),
});
const call = <Request>(request: Request) => ({ ...dsxCall(request), options });
/** A `video.submit` call with the request prepared, as core makes it. */
const submitCall = (request: Record<string, unknown>) => call(prepareDsxSubmission(request as never));

async function provider(...answers: Parameters<typeof stubHost>) {
  const { host, sent } = stubHost(...answers);
  const created = await dsxPlugin.create(options, host);
  return { operations: created.operations as Record<string, (call: unknown) => Promise<unknown>>, sent };
}

t.test('options: the asset API is optional; its defaults are cn-beijing and the default project', async (t) => {
  t.match(options.assets, { base_url: 'https://ark.example-openapi.com', region: 'cn-beijing', project_name: 'default' });
  t.throws(() => dsxPlugin.options.parse({ assets: { base_url: 'ark', access_key_id: 'a', secret_access_key: 'b' } }));
  t.throws(() => dsxPlugin.options.parse({ assets: { base_url: 'https://x.example' } }), 'the key pair is required');
  const { host } = stubHost(upstreamAnswer(200, {}));
  const without = await dsxPlugin.create(dsxPlugin.options.parse({}), host);
  t.notOk('assets.create' in without.operations, 'no asset operations without the asset API');
  const withAssets = await dsxPlugin.create(options, host);
  t.ok(withAssets.operations['assets.create'] && withAssets.operations['assets.getValidationResult']);
});

t.test('requests are signed with the V4 scheme over the body, host and date', async (t) => {
  const now = new Date('2026-09-24T14:00:15.123Z');
  const body = '{"Name":"cast"}';
  const headers = signVolcRequest({ method: 'POST', url: 'https://ark.example/?Version=2024-01-01&Action=CreateAssetGroup', body, contentType: 'application/json' }, { accessKeyId: 'AK', secretAccessKey: 'SK', region: 'cn-beijing', service: 'ark' }, now);
  t.equal(volcDate(now), '20260924T140015Z');
  t.equal(headers['x-date'], '20260924T140015Z');
  t.equal(headers['x-content-sha256'], createHash('sha256').update(body).digest('hex'));
  t.match(headers.authorization, /^HMAC-SHA256 Credential=AK\/20260924\/cn-beijing\/ark\/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$/);
  const again = signVolcRequest({ method: 'POST', url: 'https://ark.example/?Action=CreateAssetGroup&Version=2024-01-01', body, contentType: 'application/json' }, { accessKeyId: 'AK', secretAccessKey: 'SK', region: 'cn-beijing', service: 'ark' }, now);
  t.equal(again.authorization, headers.authorization, 'the query is signed in sorted order');
  const other = signVolcRequest({ method: 'POST', url: 'https://ark.example/?Action=CreateAssetGroup&Version=2024-01-01', body: '{}', contentType: 'application/json' }, { accessKeyId: 'AK', secretAccessKey: 'SK', region: 'cn-beijing', service: 'ark' }, now);
  t.not(other.authorization, headers.authorization, 'another body, another signature');
});

t.test('an action posts the signed JSON with ProjectName to ?Action=&Version=2024-01-01 and answers Result', async (t) => {
  const { host, sent } = stubHost(upstreamAnswer(200, envelope({ Id: 'group-1' })));
  t.strictSame(await callDsxAssetAction(host, call({}), 'CreateAssetGroup', { Name: 'cast' }), { Id: 'group-1' });
  t.equal(sent[0]!.url, 'https://ark.example-openapi.com/?Action=CreateAssetGroup&Version=2024-01-01');
  t.strictSame(JSON.parse(String(sent[0]!.body)), { Name: 'cast', ProjectName: 'default' });
  t.match(sent[0]!.headers, { 'content-type': 'application/json', authorization: /^HMAC-SHA256 Credential=AK\//, 'x-date': /^\d{8}T\d{6}Z$/ });
  t.notOk(String(sent[0]!.headers?.authorization).includes('SK'), 'the secret never travels');
});

t.test('asset API errors: missing objects 404, the channel’s trouble retryable, the rest 502 with the code', async (t) => {
  const cases: Array<[number, unknown, Record<string, unknown>]> = [
    [404, envelope(undefined, { Code: 'ResourceNotFound', Message: 'no such asset' }), { statusCode: 404, code: 'not_found', retryable: false }],
    [200, envelope(undefined, { Code: 'NotFound.Asset', Message: 'no such asset' }), { statusCode: 404 }],
    [401, envelope(undefined, { Code: 'SignatureDoesNotMatch', Message: 'bad signature' }), { statusCode: 502, code: 'upstream_auth_failed', retryable: true }],
    [200, envelope(undefined, { Code: 'SubscriptionRequired', Message: 'subscribe' }), { code: 'upstream_auth_failed', message: /SubscriptionRequired/ }],
    [429, envelope(undefined, { Code: 'Throttling', Message: 'slow down' }), { statusCode: 429, retryable: true }],
    [500, 'oops', { statusCode: 502, retryable: true }],
    [400, envelope(undefined, { Code: 'InvalidParameter', Message: 'URL is not reachable' }), { statusCode: 502, code: 'InvalidParameter', message: 'URL is not reachable', retryable: false }],
    [200, 'not json', { statusCode: 502, code: 'upstream_invalid_response' }],
  ];
  for (const [status, body, expected] of cases) {
    const { host } = stubHost(upstreamAnswer(status, body));
    t.match(await rejected(callDsxAssetAction(host, call({}), 'GetAsset', { Id: 'asset-1' })), expected, `${status} ${JSON.stringify(body).slice(0, 60)}`);
  }
  const { host } = stubHost(upstreamAnswer(200, {}));
  t.match(await rejected(callDsxAssetAction(host, dsxCall({}), 'GetAsset', {})), { statusCode: 501, code: 'assets_unavailable' });
});

t.test('assets map to the gateway’s records: lower-case types and statuses', async (t) => {
  t.strictSame(fromVolcAsset({ Id: 'asset-1', Name: 'clip', GroupId: 'group-1', AssetType: 'Video', URL: 'https://m.example/a.mp4', Status: 'Active', CreateTime: 'x' }), {
    id: 'asset-1',
    group_id: 'group-1',
    asset_type: 'video',
    url: 'https://m.example/a.mp4',
    name: 'clip',
    status: 'active',
  });
  t.match(fromVolcAsset({ Id: 'asset-2', Status: 'Processing' }, { group_id: 'g', asset_type: 'audio', url: 'u' }), { group_id: 'g', asset_type: 'audio', url: 'u', status: 'processing' });
  t.match(fromVolcAsset({ Id: 'asset-3', Status: 'Mystery', AssetType: 'Image' }), { status: 'processing' }, 'an unknown status is not usable yet');
  t.match(fromVolcAsset({ Id: 'asset-4', Status: 'constructor', AssetType: 'toString' }), { status: 'processing', asset_type: 'image' }, 'nor is a status named like an inherited property');
  t.throws(() => fromVolcAsset({ Status: 'Active' }), 'an asset needs an id');
});

t.test('the operations send the upstream fields and pin each new object to its channel', async (t) => {
  const { operations, sent } = await provider(
    upstreamAnswer(200, envelope({ Id: 'group-1' })),
    upstreamAnswer(200, envelope({ Id: 'asset-1', Status: 'Processing' })),
    upstreamAnswer(200, envelope({ BytedToken: 'bt', H5Link: 'https://h5.example/x' })),
    upstreamAnswer(200, envelope({ GroupId: 'group-face' })),
  );
  t.strictSame(await operations['assets.createGroup']!(call({ name: 'cast', description: 'd' })), {
    kind: 'json',
    body: { id: 'group-1', name: 'cast', description: 'd', group_type: 'aigc' },
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'upstream' },
    affinityKey: 'group-1',
  });
  t.match(JSON.parse(String(sent[0]!.body)), { Name: 'cast', Description: 'd', GroupType: 'AIGC' });
  const asset = (await operations['assets.create']!(call({ group_id: 'group-1', url: 'https://m.example/a.mp4', asset_type: 'video', name: 'clip' }))) as JsonResult;
  t.strictSame(JSON.parse(String(sent[1]!.body)), { GroupId: 'group-1', URL: 'https://m.example/a.mp4', AssetType: 'Video', Name: 'clip', ProjectName: 'default' });
  t.match(asset, { body: { id: 'asset-1', group_id: 'group-1', asset_type: 'video', status: 'processing' }, affinityKey: 'asset-1' });
  t.match(await operations['assets.createValidationSession']!(call({ callback_url: 'https://gw.example/v1/visual-validate/result' })), { body: { byted_token: 'bt', h5_link: 'https://h5.example/x' }, affinityKey: 'bt' });
  t.match(JSON.parse(String(sent[2]!.body)), { CallbackURL: 'https://gw.example/v1/visual-validate/result' });
  t.match(await operations['assets.getValidationResult']!(call({ byted_token: 'bt' })), { body: { group_id: 'group-face' } });
  t.match(JSON.parse(String(sent[3]!.body)), { BytedToken: 'bt' });
});

t.test('a 2.0 submission looks its assets up and sends each as the item type of its asset', async (t) => {
  const { operations, sent } = await provider(
    upstreamAnswer(200, envelope({ Id: 'asset-v', AssetType: 'Video', Status: 'Active' })),
    upstreamAnswer(200, { id: 'cgt-1' }),
  );
  const request = { model: 'sdx-2-0', prompt: 'x', metadata: { content: [{ type: 'image_url', image_url: { url: 'asset://asset-v' } }] } };
  const accepted = (await operations['video.submit']!(submitCall(request))) as TaskAccepted;
  t.equal(accepted.handle, 'cgt-1');
  t.match(JSON.parse(String(sent[0]!.body)), { Id: 'asset-v' });
  t.strictSame(JSON.parse(String(sent[1]!.body)).content[1], { type: 'video_url', video_url: { url: 'asset://asset-v' }, role: 'reference_video' });
});

t.test('an unknown, processing or failed asset is a 400 naming where it was referenced', async (t) => {
  const cases: Array<[ReturnType<typeof upstreamAnswer>, RegExp]> = [
    [upstreamAnswer(404, envelope(undefined, { Code: 'ResourceNotFound', Message: 'no' })), /no asset "asset-x"/],
    [upstreamAnswer(200, envelope({ Id: 'asset-x', AssetType: 'Image', Status: 'Processing' })), /still processing/],
    [upstreamAnswer(200, envelope({ Id: 'asset-x', AssetType: 'Image', Status: 'Failed' })), /failed to process/],
  ];
  for (const [answer, message] of cases) {
    const { operations, sent } = await provider(answer);
    const error = await rejected(operations['video.submit']!(submitCall({ model: 'sdx-2-0', image: 'asset://asset-x' })));
    t.match(error, { statusCode: 400, param: 'image', message });
    t.equal(sent.length, 1, 'no task was created');
  }
  const { operations } = await provider(upstreamAnswer(503, 'down'));
  t.match(await rejected(operations['video.submit']!(submitCall({ model: 'sdx-2-0', image: 'asset://asset-x' }))), { retryable: true }, 'an outage of the asset API may fail over');
});
