/** The options of every management route: it takes a user's login token (`Authorization: Bearer <login token>`). */
export const loginRoute = { config: { auth: 'login' } } as const;

/**
 * The envelope every successful management answer is sent in: `{success: true, message: ""}`,
 * with `data` when there is any. Failures get `{success: false, message}` from the error
 * handler's envelope dialect.
 */
export const envelope = (data?: unknown) => (data === undefined ? { success: true, message: '' } : { success: true, message: '', data });
