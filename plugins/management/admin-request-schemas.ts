import { z } from 'zod';
import { providerEntryWith, providerFields } from '../../core/config/config-schema.js';
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

const enabledField = z.boolean({ error: 'expected true (serving) or false (disabled: drained, new requests go to other channels)' }).optional();

/** POST /api/channel/: a `providers` entry of the config file, as JSON, and whether it serves at once (by default it does). */
export const createChannelBody = providerEntryWith({ enabled: enabledField }, jsonObject);

const channelName = z.string({ error: 'expected the name of a channel' }).min(1, { error: 'must not be empty' }).max(200, { error: 'at most 200 characters' });

/**
 * PUT /api/channel/: the channel's name, `enabled`, and any other field of its entry to
 * change (what is left out stays, `null` removes an optional field). The changed entry is
 * checked whole, as a new one is, so the fields here only have to be fields.
 */
export const updateChannelBody = z.strictObject(
  {
    ...Object.fromEntries(Object.keys(providerFields.shape).map((field) => [field, z.unknown().optional()])),
    name: channelName,
    enabled: enabledField,
  },
  jsonObject,
);

/** DELETE /api/channel/:name */
export const channelNameParams = z.strictObject({ name: channelName });
