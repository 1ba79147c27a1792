import { request as httpRequest } from 'node:http';
import t, { type Test } from 'tap';
import { startFakeArkUpstream, type ArkBehaviour, type FakeArkUpstream } from './fake-ark-upstream.js';
import { signVolcRequest } from '../../../providers/dsx/sign-volc-request.js';

const keys = { accessKeyId: 'unit-ak', secretAccessKey: 'unit-sk' };

interface Answer {
  status: number;
  body: Record<string, any>;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** One signed asset-API action, as the dsx provider signs it. */
function act(fake: FakeArkUpstream, action: string, fields: Record<string, unknown>, options: { secret?: string; tamper?: boolean; version?: string } = {}): Promise<Answer> {
  const url = `${fake.url}/?Action=${action}&Version=${options.version ?? '2024-01-01'}`;
  const body = JSON.stringify({ ...fields, ProjectName: 'default' });
  const headers = signVolcRequest({ method: 'POST', url, body, contentType: 'application/json' }, { ...keys, secretAccessKey: options.secret ?? keys.secretAccessKey, region: 'cn-beijing', service: 'ark' }, new Date());
  return post(url, options.tamper === true ? body.replace('default', 'other') : body, headers);
}

async function startFake(t: Test): Promise<FakeArkUpstream> {
  const fake = await startFakeArkUpstream(keys);
  t.teardown(() => fake.close());
  return fake;
}

async function groupOf(t: Test, fake: FakeArkUpstream): Promise<string> {
  const created = await act(fake, 'CreateAssetGroup', { Name: 'cast', GroupType: 'AIGC' });
  t.equal(created.status, 200);
  return created.body.Result.Id as string;
}

t.test('answers in the OpenAPI envelope: ResponseMetadata then Result', async (t) => {
  const fake = await startFake(t);
  const created = await act(fake, 'CreateAssetGroup', { Name: 'cast', Description: 'the cast', GroupType: 'AIGC' });
  t.equal(created.status, 200);
  t.strictSame(Object.keys(created.body), ['ResponseMetadata', 'Result']);
  t.match(created.body.ResponseMetadata, { RequestId: /^0217/, Action: 'CreateAssetGroup', Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });
  t.match(created.body.Result, { Id: /^group-\d{14}-[a-z0-9]{5}$/ });
  t.match((await act(fake, 'GetAssetGroup', { Id: created.body.Result.Id })).body.Result, { Name: 'cast', Description: 'the cast', GroupType: 'AIGC' });
  t.match((await act(fake, 'ListAssetGroups', {})).body.Result, { TotalCount: 1, Items: [{ Id: created.body.Result.Id }] });
});

t.test('checks the V4 signature: a wrong secret, key or body is a 401 envelope error', async (t) => {
  const fake = await startFake(t);
  const cases: Array<[Promise<Answer>, string]> = [
    [act(fake, 'ListAssetGroups', {}, { secret: 'wrong' }), 'SignatureDoesNotMatch'],
    [act(fake, 'ListAssetGroups', {}, { tamper: true }), 'SignatureDoesNotMatch'],
    [post(`${fake.url}/?Action=ListAssetGroups&Version=2024-01-01`, '{}', { 'content-type': 'application/json' }), 'InvalidAuthorization'],
  ];
  for (const [answer, code] of cases) {
    const { status, body } = await answer;
    t.equal(status, 401);
    t.match(body, { ResponseMetadata: { Error: { Code: code } } });
    t.notOk('Result' in body, 'no Result with an error');
  }
  const other = await startFakeArkUpstream({ accessKeyId: 'someone-else', secretAccessKey: keys.secretAccessKey });
  t.teardown(() => other.close());
  t.match((await act(other, 'ListAssetGroups', {})).body, { ResponseMetadata: { Error: { Code: 'InvalidAccessKey' } } });
  t.match((await act(fake, 'ListAssetGroups', {}, { version: '2020-01-01' })).body, { ResponseMetadata: { Error: { Code: 'InvalidVersion' } } });
});

t.test('an asset goes Processing, then Active over GetAsset reads', async (t) => {
  const fake = await startFake(t);
  const group = await groupOf(t, fake);
  const created = await act(fake, 'CreateAsset', { GroupId: group, URL: 'https://media.example/face.png', AssetType: 'Image', Name: 'face' });
  t.match(created.body.Result, { Id: /^asset-\d{14}-[a-z0-9]{5}$/, Status: 'Processing' });
  const id = created.body.Result.Id as string;
  const first = await act(fake, 'GetAsset', { Id: id });
  t.match(first.body.Result, { Id: id, Name: 'face', GroupId: group, AssetType: 'Image', URL: 'https://media.example/face.png', Status: 'Processing', ProjectName: 'default' });
  t.match((await act(fake, 'GetAsset', { Id: id })).body.Result, { Status: 'Active' });
  t.match((await act(fake, 'ListAssets', { Filter: { GroupIds: [group] } })).body.Result, { TotalCount: 1, Items: [{ Id: id, Status: 'Active' }] });
});

t.test('scripted assets stay processing longer or fail', async (t) => {
  const fake = await startFake(t);
  const group = await groupOf(t, fake);
  const create = async (behaviour: ArkBehaviour) => {
    fake.next(behaviour);
    return (await act(fake, 'CreateAsset', { GroupId: group, URL: 'https://media.example/a.mp4', AssetType: 'Video' })).body.Result.Id as string;
  };
  const slow = await create({ assetProcessingReads: 2 });
  const broken = await create({ assetOutcome: 'Failed' });
  const statuses = async (id: string) => [(await act(fake, 'GetAsset', { Id: id })).body.Result.Status, (await act(fake, 'GetAsset', { Id: id })).body.Result.Status, (await act(fake, 'GetAsset', { Id: id })).body.Result.Status];
  t.strictSame(await statuses(slow), ['Processing', 'Processing', 'Active']);
  t.strictSame(await statuses(broken), ['Processing', 'Failed', 'Failed']);
});

t.test('refuses what §3.5 refuses: base64 instead of a URL, an unknown group or id', async (t) => {
  const fake = await startFake(t);
  const group = await groupOf(t, fake);
  const base64 = await act(fake, 'CreateAsset', { GroupId: group, URL: 'data:image/png;base64,AAAA', AssetType: 'Image' });
  t.equal(base64.status, 400);
  t.match(base64.body, { ResponseMetadata: { Error: { Code: 'InvalidParameter' } } });
  t.match((await act(fake, 'CreateAsset', { GroupId: 'group-nope', URL: 'https://m.example/a.png', AssetType: 'Image' })).body, { ResponseMetadata: { Error: { Code: 'ResourceNotFound' } } });
  const missing = await act(fake, 'GetAsset', { Id: 'asset-nope' });
  t.equal(missing.status, 404);
  t.match((await act(fake, 'Explode', {})).body, { ResponseMetadata: { Error: { Code: 'InvalidAction' } } });
});

t.test('deleting a group deletes its assets', async (t) => {
  const fake = await startFake(t);
  const group = await groupOf(t, fake);
  const id = (await act(fake, 'CreateAsset', { GroupId: group, URL: 'https://m.example/a.png', AssetType: 'Image' })).body.Result.Id as string;
  t.strictSame((await act(fake, 'DeleteAssetGroup', { Id: group })).body.Result, {});
  t.equal((await act(fake, 'GetAsset', { Id: id })).status, 404);
  t.equal((await act(fake, 'DeleteAsset', { Id: id })).status, 404);
});

t.test('a face validation session gives a page, and once passed, its LivenessFace group', async (t) => {
  const fake = await startFake(t);
  const session = (await act(fake, 'CreateVisualValidateSession', { CallbackURL: 'https://gateway.example/v1/visual-validate/result' })).body.Result;
  t.match(session, { BytedToken: /^[0-9a-f]{32}$/, H5Link: `${fake.url}/visual-validate/h5?byted_token=${session.BytedToken}`, CallbackURL: 'https://gateway.example/v1/visual-validate/result' });
  const pending = await act(fake, 'GetVisualValidateResult', { BytedToken: session.BytedToken });
  t.equal(pending.status, 200, 'an error may come with HTTP 200');
  t.match(pending.body, { ResponseMetadata: { Error: { Code: /NotPassed/ } } });
  const group = fake.passValidation(session.BytedToken);
  t.strictSame((await act(fake, 'GetVisualValidateResult', { BytedToken: session.BytedToken })).body.Result, { GroupId: group });
  t.equal(fake.assets.groups.get(group)!.GroupType, 'LivenessFace');
});

t.test('scripted errors: a status with an envelope error, or 200 with ResponseMetadata.Error', async (t) => {
  const fake = await startFake(t);
  fake.next({ error: 500 });
  const failing = await act(fake, 'ListAssetGroups', {});
  t.equal(failing.status, 500);
  t.match(failing.body, { ResponseMetadata: { Error: { Code: 'InternalError' } } });
  fake.next({ volcError: { Code: 'SubscriptionRequired', Message: 'subscribe first' } });
  const gated = await act(fake, 'ListAssetGroups', {});
  t.equal(gated.status, 200);
  t.match(gated.body, { ResponseMetadata: { Error: { Code: 'SubscriptionRequired' } } });
});

t.test('a task create checks its asset:// references against the library', async (t) => {
  const fake = await startFakeArkUpstream({ ...keys, apiKey: 'k' });
  t.teardown(() => fake.close());
  const group = await groupOf(t, fake);
  const video = (await act(fake, 'CreateAsset', { GroupId: group, URL: 'https://m.example/a.mp4', AssetType: 'Video' })).body.Result.Id as string;
  const create = (type: string, id: string) =>
    post(`${fake.url}/api/v3/contents/generations/tasks`, JSON.stringify({ model: 'seedance-2-0', content: [{ type: 'text', text: 'x' }, { type, [type]: { url: `asset://${id}` } }] }), {
      authorization: 'Bearer k',
      'content-type': 'application/json',
    });
  t.match((await create('video_url', video)).body, { error: { code: 'InvalidParameter', param: 'content[1].video_url.url', message: /is not active/ } }, 'still processing');
  await act(fake, 'GetAsset', { Id: video });
  t.match((await create('image_url', video)).body, { error: { code: 'InvalidParameter', message: /Video asset and cannot be used as image_url/ } });
  t.match((await create('video_url', 'asset-nope')).body, { error: { message: /The specified asset asset-nope is not found/ } });
  t.match((await create('video_url', video)).body, { id: /^cgt-/ });
});
