/** The six identity configuration values the app refuses to start without (spec §5). */
export const FIREBASE_CONFIG_KEYS = [
  'apiKey',
  'authDomain',
  'projectId',
  'storageBucket',
  'messagingSenderId',
  'appId',
] as const;
export type FirebaseConfigKey = (typeof FIREBASE_CONFIG_KEYS)[number];

/** A value is a placeholder when it is empty, contains 'your-' or is the string 'undefined'. */
export function isPlaceholderValue(value: string): boolean {
  return value.trim() === '' || value.includes('your-') || value === 'undefined';
}

export type ConfigProblem = { kind: 'missing'; name: string } | { kind: 'invalid'; name: string };

export function configProblemMessage(problem: ConfigProblem): string {
  return problem.kind === 'missing'
    ? `Missing required environment variable: ${problem.name}`
    : `Invalid Firebase configuration: ${problem.name} has an invalid value`;
}

/**
 * Checks named values; `names` maps each key to the variable name shown in messages.
 * Returns every problem, not just the first, so one start names them all.
 */
export function findConfigProblems(
  values: Record<string, string | undefined>,
  names: readonly string[],
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const name of names) {
    const value = values[name];
    if (value === undefined || value.trim() === '') problems.push({ kind: 'missing', name });
    else if (isPlaceholderValue(value)) problems.push({ kind: 'invalid', name });
  }
  return problems;
}
