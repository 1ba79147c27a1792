import { callUpstream, describeGoogleErrorText, googleApiKeyHeader, googleApiUrl, malformedUpstreamAnswer, readUpstreamAnswer, taskVanished, upstreamStatusError, type GoogleApiOptions, type OperationCall, type ProviderHost } from '../../core/index.js';
import { voOperationExpected } from './from-vo-operation.js';
import { voSubmitError } from './vo-error.js';
import type { VoUpstreamRequest } from './to-vo-request.js';

// Operation names look like `models/{model}/operations/{id}`; anything else from the upstream
// is not turned into a path.
const operationName = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

/**
 * Starts a task: `POST {base_url}/{api_version}/models/{model}:predictLongRunning` with the
 * channel's key (upstreams.md §1.11), and answers the operation's name. A non-2xx answer
 * becomes {@link voSubmitError}.
 * @throws GatewayError 502 (not retried: the task may have started) for an answer without a name.
 */
export async function submitVoTask(host: ProviderHost, call: OperationCall<unknown, GoogleApiOptions>, body: VoUpstreamRequest): Promise<string> {
  const url = googleApiUrl(call, `models/${encodeURIComponent(call.upstreamModel)}:predictLongRunning`);
  const response = await callUpstream(host, call, { url, headers: googleApiKeyHeader(call), body: JSON.stringify(body) }, voSubmitError);
  let json: unknown;
  try {
    json = await response.body.json();
  } catch (error) {
    throw malformedUpstreamAnswer('the upstream accepted the task with an answer that is not JSON', { cause: error, retryable: false });
  }
  const name = (json as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !operationName.test(name) || name.split('/').includes('..')) {
    throw malformedUpstreamAnswer('the upstream accepted the task without an operation name', { retryable: false });
  }
  return name;
}

/**
 * Asks about a task: `GET {base_url}/{api_version}/{operation name}` with the channel's key.
 * A 404 becomes a 404 gateway error, which tells core the upstream lost the task.
 */
export async function getVoOperation(host: ProviderHost, call: OperationCall<unknown, GoogleApiOptions>, name: string): Promise<unknown> {
  if (!operationName.test(name) || name.split('/').includes('..')) {
    throw taskVanished(`"${name}" is not an operation name this channel can ask about`);
  }
  const response = await callUpstream(host, call, { method: 'GET', url: googleApiUrl(call, name), headers: googleApiKeyHeader(call) }, (refusal) =>
    upstreamStatusError(refusal, describeGoogleErrorText),
  );
  return readUpstreamAnswer(response.body, voOperationExpected);
}
