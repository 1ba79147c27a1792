/** What every management route declares: a user's login token (route-auth signs the user in before the body is read). */
export const login = { config: { auth: 'login' } } as const;

/** The management API's answer: `{success, message}` with `data` when there is any. */
export const envelope = (data?: unknown) => (data === undefined ? { success: true, message: '' } : { success: true, message: '', data });
