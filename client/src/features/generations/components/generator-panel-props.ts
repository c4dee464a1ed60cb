import type { PlanId } from '@mediagen/shared';

export interface GeneratorPanelProps {
  signedIn: boolean;
  /** Spec §2: a signed-out user who tries to generate or play gets the sign-in dialog. */
  onRequireSignIn: () => void;
  /** Called when a generation is accepted or ends, the moments token balances change. */
  onBalanceChange: () => void;
  /** The user's tokens of the panel's kind, and when they renew (ISO 8601); absent until known. */
  balance?: { left: number; resetsAt: string } | undefined;
  /** The creator's plan, which decides the settings on offer; Free until known. */
  plan?: PlanId | undefined;
}
