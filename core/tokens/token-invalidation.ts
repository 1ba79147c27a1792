/** The store channel on which a changed or deleted token's id is announced, so every process drops its cached copy. */
export const tokenInvalidationChannel = 'token-invalidated';
