import type { GenerationKind } from './kinds';

export type TokenBalance = Record<GenerationKind, number>;

/**
 * What happened to a generation's token: `held` while undecided, then `refunded` (given back: no paid
 * provider work was done) or `spent` (the provider did, or may have done, paid work); `waived` when an
 * operator retried it without charging, so its end moves no token.
 */
export const TOKEN_STATES = ['held', 'refunded', 'spent', 'waived'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

/** Free tokens per user per reset period (spec §9). */
export const TOKEN_ALLOWANCE: Readonly<TokenBalance> = Object.freeze({ image: 1, video: 1, speech: 2 });

export const TOKEN_RESET_PERIOD_DAYS = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const TOKEN_RESET_PERIOD_MS = TOKEN_RESET_PERIOD_DAYS * DAY_MS;

/** Balances reset when 30 days have passed since the last reset (spec §4). */
export function isResetDue(lastResetMs: number, nowMs: number): boolean {
  return nowMs - lastResetMs >= TOKEN_RESET_PERIOD_MS;
}

export function resetsAt(lastResetMs: number): number {
  return lastResetMs + TOKEN_RESET_PERIOD_MS;
}

/** Remaining days until the reset, rounded up (spec §8, tokens). Never less than 1 while exhausted. */
export function daysUntilReset(lastResetMs: number, nowMs: number): number {
  const remainingMs = resetsAt(lastResetMs) - nowMs;
  return Math.max(1, Math.ceil(remainingMs / DAY_MS));
}
