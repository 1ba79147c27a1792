import t from 'tap';
import {
  describeArkError as describeDsrErrorDetail,
  isArkSensitiveContent as isDsrSensitiveContent,
  readArkErrorBody as readDsrErrorBody,
} from '../../../../providers/shared/ark/ark-api-errors.js';
import { dsrPromptBlocked } from '../../../../providers/dsr/from-dsr-response.js';
import { seedreamResponses } from './fixtures/read-dsr-fixtures.js';

const recorded = seedreamResponses();

t.test('the recorded 401 body is read and described with its code', async (t) => {
  const error = readDsrErrorBody(JSON.stringify(recorded.error_401));
  t.strictSame(error, recorded.error_401.error);
  t.equal(describeDsrErrorDetail(error!), 'the API key or AK/SK in the request is missing or invalid. request id: ... (AuthenticationError)');
});

t.test('bodies that are not Ark errors are not read as one', async (t) => {
  t.equal(readDsrErrorBody('<html>bad gateway</html>'), undefined);
  t.equal(readDsrErrorBody('{"message":"x"}'), undefined);
  t.equal(describeDsrErrorDetail({}), undefined);
  t.equal(describeDsrErrorDetail({ code: 'ServerOverloaded' }), 'ServerOverloaded');
});

t.test("every safety-filter code of the reference is sensitive content, other codes are not", async (t) => {
  for (const code of ['InputTextSensitiveContentDetected', 'InputImageSensitiveContentDetected', 'OutputImageSensitiveContentDetected', recorded.partial_failed_event.error.code]) {
    t.ok(isDsrSensitiveContent(code), code);
  }
  for (const code of ['InvalidParameter', 'AuthenticationError', 'RateLimitExceeded.EndpointRPMExceeded', '', null, undefined]) t.notOk(isDsrSensitiveContent(code), String(code));
});

t.test('a blocked prompt says what to change and keeps the upstream reason', async (t) => {
  const error = dsrPromptBlocked(recorded.partial_failed_event.error);
  t.match(error, { statusCode: 400, code: 'prompt_blocked', retryable: false });
  t.match(error.message, /output image may contain sensitive information\. \(OutputImageSensitiveContentDetected\); change the prompt or the reference images$/);
});
