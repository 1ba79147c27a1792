import t from 'tap';
import { compileKeySearchPattern } from '../../../core/tokens/key-search-pattern.js';

const key = 'abcdEFGH0123456789abcdEFGH0123456789abcdEFGHwxyz';

t.test('a term without % matches anywhere in the key, with or without sk-', async (t) => {
  t.ok(compileKeySearchPattern('0123')(key));
  t.ok(compileKeySearchPattern('sk-abcdEF')(key));
  t.notOk(compileKeySearchPattern('zzzz')(key));
});

t.test('% stands for any run of characters and the term must match the whole key', async (t) => {
  t.ok(compileKeySearchPattern('abcd%wxyz')(key));
  t.ok(compileKeySearchPattern('%wxyz')(key));
  t.ok(compileKeySearchPattern('abcd%0123%wxyz')(key));
  t.notOk(compileKeySearchPattern('abcd%')(key.slice(1)));
  t.notOk(compileKeySearchPattern('bcd%wxyz')(key));
});

t.test('bad wildcard patterns are refused with a message about the token field', async (t) => {
  t.throws(() => compileKeySearchPattern('a%b%c%d'), { statusCode: 400, message: /at most 2 % wildcards/ });
  t.throws(() => compileKeySearchPattern('ab%%cd'), { statusCode: 400, message: /two % wildcards in a row/ });
  t.throws(() => compileKeySearchPattern('%a%'), { statusCode: 400, message: /at least 2 characters/ });
  t.throws(() => compileKeySearchPattern('ab_cd'), { statusCode: 400, message: /only letters, digits/ });
  t.throws(() => compileKeySearchPattern('.*'), { statusCode: 400, param: 'token', message: /token:/ });
});
