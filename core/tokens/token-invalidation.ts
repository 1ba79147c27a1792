/** The store channel on which a changed or deleted token's id is announced, so every process drops its cached copy. */
export const tokenInvalidationChannel = 'token-invalidated';

/**
 * The store channel on which a user whose status changed is announced by id, so every process
 * drops its cached copies of that user's tokens and reads the user afresh with the next key.
 */
export const userInvalidationChannel = 'user-invalidated';
