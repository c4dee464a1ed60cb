import { welcomeMessage } from '@mediagen/shared';
import { getMe } from './api/get-me';

/**
 * Spec §4: the welcome lists the remaining tokens, here with the plan they belong to and how often it
 * renews them (shared/src/plan-facts.ts). Loaded with the call, never with the landing page: the plan
 * facts are shared with Pricing and the dashboard, and would otherwise join the first download.
 */
export async function fetchWelcomeMessage(): Promise<string> {
  const me = await getMe();
  return welcomeMessage(me.tokens, me.plan);
}
