import { isPlaceholderValue } from '@mediagen/shared';
import { z } from 'zod';

export type Env = Record<string, string | undefined>;

/** Every problem of one process's configuration, so a single failed start names them all. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly component: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid ${component} configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/**
 * Reads environment variables with one set of rules for every process: a blank value counts as unset, a
 * placeholder ('your-…', 'undefined') is a mistake rather than a value, and every problem is collected
 * instead of stopping at the first. `finish` throws them all at once.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  /** The trimmed value, or undefined when unset or blank; a placeholder is reported and reads as unset. */
  raw(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined || value.trim() === '') return undefined;
    if (isPlaceholderValue(value)) {
      this.problem(`${name} has a placeholder value (${JSON.stringify(value)})`);
      return undefined;
    }
    return value.trim();
  }

  /** Whether the variable is present at all, even blank: for settings whose mere presence changes behaviour. */
  isPresent(name: string): boolean {
    return this.env[name] !== undefined;
  }

  /** Parses the value (or `fallback` when unset) with `schema`; undefined when unset without fallback or invalid. */
  read<T>(name: string, schema: z.ZodType<T, string>, fallback?: string): T | undefined {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) return undefined;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.problem(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    return undefined;
  }

  /** Like `read`, but unset is a problem too; `why` says when it is required. */
  require<T>(name: string, schema: z.ZodType<T, string>, why: string): T | undefined {
    if (this.raw(name) === undefined) {
      if (!this.reported(name)) this.problem(`Missing required environment variable: ${name} (${why})`);
      return undefined;
    }
    return this.read(name, schema);
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** Whether a problem was already reported for this variable (so a rule doesn't report it twice). */
  reported(name: string): boolean {
    return this.problems.some((problem) => problem.startsWith(`${name} `) || problem.includes(`variable: ${name} `));
  }

  /** Throws every collected problem; returns normally when there were none. */
  finish(component: string): void {
    if (this.problems.length > 0) throw new ConfigError(component, this.problems);
  }
}

/** A variable holding a whole number within `min..max`. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}
