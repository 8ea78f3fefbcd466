// What the sign-in page says when the service refuses a key: one sentence a person can act on (check
// the key, or the command that makes a new one), not the service's code and path. No DOM: unit-tested.
import { describeError, type ApiError } from './api-errors.js';

/** The command that makes an admin key, run where the service's data is (docs/operations.md). */
export const CREATE_KEY_COMMAND = 'npx imprint admin create-key --account <account id> --role admin';

export interface SignInProblem {
  /** The sentence, ending where the command (if any) follows. */
  text: string;
  /** A command to show as code after the text. */
  command?: string;
}

export function signInProblem(e: ApiError): SignInProblem {
  if (e.status === 401) return { text: 'This key is not known. Check it, or create one with', command: CREATE_KEY_COMMAND };
  if (e.status === 403)
    return { text: 'This key is not an admin key, and the Studio needs one. Use the account’s admin key, or create one with', command: CREATE_KEY_COMMAND };
  return { text: describeError(e) };
}
