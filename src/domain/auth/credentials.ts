/** Bounds of the console's sign-in credentials (the API documents and enforces them). */
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** The one message of a failed sign-in: an unknown user and a wrong password are not told apart. */
export const WRONG_CREDENTIALS = 'Wrong username or password';
