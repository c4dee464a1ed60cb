import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  PLANS,
  VOICES,
  LANGUAGE_GROUPS,
  authErrorMessage,
  configProblemMessage,
  defaultVoiceFor,
  findConfigProblems,
  validateCredentials,
} from '../src';

describe('credential rules (spec §5)', () => {
  it('requires both fields and, in the sign-up modal, 6 characters', () => {
    expect(validateCredentials('', 'secret1', { enforceLength: true })).toBe('Please fill in all fields');
    expect(validateCredentials('a@b.co', '12345', { enforceLength: true })).toBe(
      'Password must be at least 6 characters long',
    );
    expect(validateCredentials('a@b.co', '12345', { enforceLength: false })).toBeNull();
  });

  it('maps identity errors to the catalogue and keeps other messages', () => {
    expect(authErrorMessage({ code: 'auth/email-already-in-use' })).toBe(AUTH_MESSAGES.emailInUse);
    expect(authErrorMessage({ code: 'auth/wrong-password' })).toBe('Invalid email or password.');
    expect(authErrorMessage({ code: 'auth/too-many-requests' })).toBe('Too many attempts. Please try again later.');
    expect(authErrorMessage({ code: 'auth/other', message: 'Boom' })).toBe('Boom');
    expect(authErrorMessage({})).toBe('Authentication failed');
  });

  it('says what a blocked popup or a social sign-in failure means, never "Firebase: Error (auth/…)"', () => {
    expect(authErrorMessage({ code: 'auth/popup-blocked', message: 'Firebase: Error (auth/popup-blocked).' })).toMatch(
      /popup was blocked/,
    );
    expect(
      authErrorMessage({
        code: 'auth/account-exists-with-different-credential',
        message: 'Firebase: Error (auth/account-exists-with-different-credential).',
      }),
    ).toMatch(/already exists with this email/);
    expect(authErrorMessage({ code: 'auth/internal-error', message: 'Firebase: Error (auth/internal-error).' })).toBe(
      'Authentication failed',
    );
  });
});

describe('configuration rule (spec §5)', () => {
  it('reports missing, empty, placeholder and "undefined" values by name', () => {
    const problems = findConfigProblems({ A: 'ok', B: '', C: 'your-key', D: 'undefined' }, ['A', 'B', 'C', 'D', 'E']);
    expect(problems.map(configProblemMessage)).toEqual([
      'Missing required environment variable: B',
      'Invalid Firebase configuration: C has an invalid value',
      'Invalid Firebase configuration: D has an invalid value',
      'Missing required environment variable: E',
    ]);
  });
});

describe('catalogue data (spec §3, §9)', () => {
  it('prices the plans as the spec does', () => {
    expect(PLANS.map((plan) => [plan.title, plan.price.monthly, plan.price.yearly])).toEqual([
      ['Free', 0, null],
      ['Pro', 29, 279],
      ['Enterprise', 99, 949],
    ]);
  });

  it('lists three voices per gender and resets to the first one', () => {
    expect(VOICES.female.map((voice) => voice.id)).toEqual(['nova', 'shimmer', 'alloy']);
    expect(VOICES.male.map((voice) => voice.id)).toEqual(['echo', 'onyx', 'fable']);
    expect(defaultVoiceFor('male')).toBe('echo');
  });

  it('groups 6 regional and 9 international languages', () => {
    expect(LANGUAGE_GROUPS.map((group) => [group.label, group.languages.length])).toEqual([
      ['Regional Languages', 6],
      ['International Languages', 9],
    ]);
  });
});
