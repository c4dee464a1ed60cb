import { GenerationLifecycle, openDatabase } from '@mediagen/core';
import type { PlanId } from '@mediagen/shared';

/** The uid an ID token was issued to (the emulator's tokens are unsigned JWTs). */
export function uidOf(idToken: string): string {
  const payload = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as { user_id: string };
  return payload.user_id;
}

/** Moves a user to a plan as an operator would (the record's own plan change), before they sign in. */
export async function movePlan(databaseUrl: string, idToken: string, plan: PlanId): Promise<void> {
  const database = openDatabase(databaseUrl);
  try {
    await new GenerationLifecycle(database.db).setPlan(uidOf(idToken), plan, 'browser test');
  } finally {
    await database.close();
  }
}
