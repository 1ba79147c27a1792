import { z } from 'zod';
import type { OperationName } from '../../core/contracts/provider/operation-call.js';
import { testableOperations } from '../../core/pipeline/channel-test.js';
import { UserStatus, userRoles } from '../../core/users/user-repository.js';
import { budgetFields, integerField, jsonObject } from './token-request-schemas.js';

/** POST /api/user/: the username's own rules are the user service's, which names the field. */
export const createUserBody = z.strictObject(
  {
    username: z.string({ error: 'expected 1 to 64 letters, digits, ".", "_" or "-"' }),
    role: z.enum(userRoles, { error: 'expected admin or user' }).default('user'),
    ...budgetFields,
  },
  jsonObject,
);

/** PUT /api/user/: the statuses of the token API, 1 enabled and 2 disabled, and the user's budgets; what is left out stays. */
export const updateUserBody = z.strictObject(
  {
    id: integerField(1, Number.MAX_SAFE_INTEGER, 'of 1 or more'),
    status: z.union([z.literal(UserStatus.enabled), z.literal(UserStatus.disabled)], { error: 'expected 1 (enabled) or 2 (disabled)' }).optional(),
    ...budgetFields,
  },
  jsonObject,
);

/** POST /api/channel/test */
export const testChannelBody = z.strictObject(
  {
    name: z.string({ error: 'expected a channel name' }).min(1, { error: 'must not be empty' }).max(200, { error: 'at most 200 characters' }),
    model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }).max(200, { error: 'at most 200 characters' }).optional(),
    operation: z.enum(testableOperations as [OperationName, ...OperationName[]], { error: `expected one of ${testableOperations.join(', ')}` }).optional(),
  },
  jsonObject,
);
