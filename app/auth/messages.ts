/**
 * The sign-in messages of SPEC §5 and §8 and the codes a link may ask the login view to show.
 * No zod here: the shell (root route) imports it, and every page loads the root's code.
 */
export const FORBIDDEN_PASSWORD_CHARS = /["'?&/<>\s]/
export const PASSWORD_HINT = 'At least 8 characters with one lower-case letter, one upper-case letter, one numeral and one special character.'

export const MSG = {
  required: (field: string) => `You must enter a ${field} value`,
  forbidden: 'Password contains forbidden characters: " \' ? & / < > or spaces',
  loginFailed: "Login failed, please try again. If you forgot your password please reset it by clicking 'Reset Password'.",
  networkDown: ' (Network is disconnected)',
  unreachable: 'Servers unreachable. Please try again later. If error persists please contact support',
  generic: 'Login error, please try again',
  idle: 'You have been logged out due to extended inactivity. Please login again.',
  noWeb: 'Your account type does not have web acess: please contact support',
  resetSent:
    'If you are an authorized user, a password reset link has been sent to your email account. Please check your spam folders if you do not see it. If you do not receive it, contact support.',
  resetTooMany: (limit: 'address' | 'recipient', minutes: number) =>
    `Too many password reset requests ${limit === 'address' ? 'from this network address' : 'for this email address'}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  locked: (minutes: number) => `Too many failed attempts. Login is locked for ${minutes} minute${minutes === 1 ? '' : 's'}; try again later or reset your password.`,
  processing: 'Your account is being processed. You will receive an email when your account is ready for access.',
  waitEmail: 'Please wait for authorization email',
  noMetrc: 'No METRC Credentials Provided: an API key and state license ID are needed to use this product.',
  credentialsError: 'There was an error in one or more of the credentials you previously provided. Please correct this information.',
  badLicense: 'State License was incorrect.',
  badKey: 'METRC API Key was incorrect.',
  tokenBad: 'This sign-in link is invalid or has expired. Please login again.',
} as const

export const CREDENTIAL_STATES = ['CA', 'AK', 'DC', 'CO', 'LA', 'ME', 'MA', 'MD', 'MI', 'MO', 'MT', 'NV', 'OH', 'OK', 'OR', 'WV'] as const

/** Messages the address may ask the login view to show, by code (never free text from a link). */
export const MESSAGE_CODES = {
  idle: MSG.idle,
  failed: MSG.loginFailed,
  noweb: MSG.noWeb,
  token: MSG.tokenBad,
  locked: 'Too many failed attempts. Login is locked for a while; try again later or reset your password.',
  loggedout: 'You have been logged out.',
  declined: 'You declined the license agreement, so you have been logged out.',
  reset: MSG.resetSent,
  changed: 'Your password has been changed. Please login again.',
  invited: 'Your password is set. Please login with your email address and the new password.',
  deleted: 'The item was deleted.',
  saved: 'The item was saved.',
} as const
export type MessageCode = keyof typeof MESSAGE_CODES
export const messageFor = (code: string | null | undefined): string | null => (code && code in MESSAGE_CODES ? MESSAGE_CODES[code as MessageCode] : null)
