import type { BillingPeriod, BillingState, PaidPlanId, PlanId } from '@mediagen/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openPortal, startCheckout } from '../api/billing-api';
import { BILLING_UNREACHABLE } from '../billing-words';
import { useBillingRedirect } from './use-billing-redirect';
import { useBillingState } from './use-billing-state';

/** What a click on a paid plan's card asked for. */
export interface CheckoutChoice {
  plan: PaidPlanId;
  period: BillingPeriod;
  /** Clicked as "Start Free Trial": a trial when billing says this person may still have one. */
  wantsTrial: boolean;
}

interface PlanCheckoutOptions {
  signedIn: boolean;
  /** Opens the sign-in dialog; the choice goes ahead once signed in (it is dropped by `forget`). */
  onRequireSignIn: () => void;
  /** Checkout is not configured on this deployment: the honest "not available yet" path. */
  onUnavailable: (choice: CheckoutChoice) => void;
}

/**
 * Pricing's buttons: checkout for the chosen plan and period, or the portal for a running subscription.
 * A visitor signs in first and the choice then goes ahead without a second click, read against the
 * signed-in billing state (whether a trial is still theirs). Busy and failure belong to the card clicked.
 */
export function usePlanCheckout({ signedIn, onRequireSignIn, onUnavailable }: PlanCheckoutOptions) {
  const { billing, refresh } = useBillingState(signedIn);
  const { busy: redirecting, error: redirectError, go } = useBillingRedirect();
  const [card, setCard] = useState<PlanId | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [waitingForSignIn, setWaitingForSignIn] = useState<CheckoutChoice | null>(null);
  const unavailable = useRef(onUnavailable);
  unavailable.current = onUnavailable;

  const proceed = useCallback(
    async (choice: CheckoutChoice, known: BillingState | null) => {
      setCard(choice.plan);
      setFailure(null);
      setPreparing(true);
      const current = known ?? (await refresh());
      setPreparing(false);
      if (current === null) return setFailure(BILLING_UNREACHABLE);
      if (!current.checkoutAvailable) return unavailable.current(choice);
      const trial = choice.wantsTrial && current.trialAvailable;
      await go(() => startCheckout({ plan: choice.plan, period: choice.period, trial }));
    },
    [go, refresh],
  );

  // Runs from the first signed-in render, never from the signed-out one that opened the dialog.
  useEffect(() => {
    if (waitingForSignIn === null || !signedIn) return;
    setWaitingForSignIn(null);
    void proceed(waitingForSignIn, null);
  }, [waitingForSignIn, signedIn, proceed]);

  function choose(choice: CheckoutChoice) {
    if (signedIn) return void proceed(choice, billing);
    setWaitingForSignIn(choice);
    onRequireSignIn();
  }

  function manageBilling(from: PlanId) {
    setCard(from);
    setFailure(null);
    void go(openPortal);
  }

  return {
    billing,
    choose,
    manageBilling,
    /** The sign-in dialog was closed: signing in some other way later is not a yes to that click. */
    forget: () => setWaitingForSignIn(null),
    busyFor: (plan: PlanId) => card === plan && (preparing || redirecting),
    errorFor: (plan: PlanId) => (card === plan ? (failure ?? redirectError) : null),
  };
}

export type PlanCheckout = ReturnType<typeof usePlanCheckout>;
