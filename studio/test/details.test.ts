// The pure logic behind the Studio's details (issue 27): the one message a refused key gets.
import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../src/lib/api-errors.js';
import { CREATE_KEY_COMMAND, signInProblem } from '../src/lib/sign-in.js';

describe('sign-in message', () => {
  it('says a wrong key is not known and how to make one, without codes or storage words', () => {
    const p = signInProblem(
      apiErrorFrom(401, { error: 'unauthorized', description: 'the API key is not known: check it, or ask the account holder for a new one' }),
    );
    expect(p.text).toBe('This key is not known. Check it, or create one with');
    expect(p.command).toBe(CREATE_KEY_COMMAND);
    expect(CREATE_KEY_COMMAND).toMatch(/^npx imprint admin create-key .*--role admin$/);
    expect(JSON.stringify(p)).not.toMatch(/sessionStorage|unauthorized/);
  });

  it('says a member key is not enough, and passes other answers on', () => {
    expect(signInProblem(apiErrorFrom(403, { error: 'forbidden', description: 'use an admin key' })).text).toMatch(/not an admin key/);
    expect(signInProblem(apiErrorFrom(500, { error: 'internal', description: 'boom' }))).toEqual({ text: 'internal: boom' });
  });
});
