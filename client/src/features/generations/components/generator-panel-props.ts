import type { PlanId } from '@mediagen/shared';

export interface PanelBalance {
  left: number;
  resetsAt: string;
  plan: PlanId;
}

export interface GeneratorPanelProps {
  signedIn: boolean;
  /**
   * Spec §2: a signed-out user who tries to generate or play gets the sign-in dialog. `afterSignIn` runs
   * once they signed in from it (not if they closed it), so the generation they asked for goes ahead.
   */
  onRequireSignIn: (afterSignIn?: () => void) => void;
  /** Called when a generation is accepted or ends, the moments token balances change. */
  onBalanceChange: () => void;
  /** The user's tokens of the panel's kind, when they renew (ISO 8601) and their plan; absent until known. */
  balance?: PanelBalance | undefined;
  /** The creator's plan, which decides the settings on offer; Free until known. */
  plan?: PlanId | undefined;
}
