import type { FastifyBaseLogger } from 'fastify';
import { loadConfigFile } from '../core/config/load-config.js';
import { createLogger } from '../core/logging/create-logger.js';
import { createStoreBackend } from '../core/store/create-store-backend.js';
import { UserStatus, type UserRecord } from '../core/users/user-repository.js';
import { UserService } from '../core/users/user-service.js';
import { createGatewayContainer } from './create-container.js';

/** Where a users command writes. */
type Write = (text: string) => void;

/** Runs `work` with the user service of the config's store, then closes the store. */
async function withUsers<T>(configFile: string, work: (users: UserService) => Promise<T>): Promise<T> {
  const { config } = loadConfigFile(configFile);
  const backend = await createStoreBackend(config.storage);
  try {
    const logger = createLogger({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const { container } = createGatewayContainer({ config, configFile, logger, backend });
    return await work(container.resolve(UserService));
  } finally {
    await backend.close();
  }
}

/** `users create <username> [--admin]`: creates the user and prints its login token, the only time it is shown. */
export async function createUserCommand(configFile: string, username: string, admin: boolean, write: Write): Promise<number> {
  const { user, loginToken } = await withUsers(configFile, (users) => users.create(username, admin ? 'admin' : 'user'));
  write(`created user ${user.username} (id ${user.id}). Its login token, shown only this once:\n${loginToken}\n`);
  return 0;
}

/** `users list`: every user of the config's store, oldest first, as an aligned table; login tokens are never shown (only their hashes are kept). */
export async function listUsersCommand(configFile: string, write: Write): Promise<number> {
  const users = await withUsers(configFile, async (service) => {
    const all: UserRecord[] = [];
    for (let page = 1; ; page += 1) {
      const { items, total } = await service.list(page, 100);
      all.push(...items);
      if (items.length === 0 || all.length >= total) break;
    }
    return all.sort((a, b) => a.id - b.id);
  });
  if (users.length === 0) {
    write('no users yet: the first start creates an admin, or run "model-gateway users create <username> --admin"\n');
    return 0;
  }
  const rows = [
    ['id', 'username', 'role', 'status', 'created (UTC)'],
    ...users.map((user) => [
      String(user.id),
      user.username,
      user.role,
      user.status === UserStatus.disabled ? 'disabled' : 'enabled',
      new Date(user.created_time * 1000).toISOString().slice(0, 16).replace('T', ' '),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}\n`);
  return 0;
}
