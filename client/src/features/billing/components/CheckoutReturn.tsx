import {
  PLAN_FACTS,
  allowanceInWords,
  watermarkInWords,
  type AccountUpdate,
  type CheckoutOutcome,
} from '@mediagen/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useCheckoutConfirmation } from '../hooks/use-checkout-confirmation';

interface CheckoutReturnProps {
  outcome: CheckoutOutcome;
  signedIn: boolean;
  /** The latest `account:update` the page heard on the live socket. */
  liveUpdate: AccountUpdate | null;
}

/** Where Stripe sends the browser back: a canceled checkout, or a payment waiting for the server's word. */
export function CheckoutReturn({ outcome, signedIn, liveUpdate }: CheckoutReturnProps) {
  const { confirmed, slow } = useCheckoutConfirmation(liveUpdate, outcome === 'success' && signedIn);

  if (outcome === 'canceled') {
    return (
      <Frame title="Checkout canceled">
        <p role="status" className="mt-3 text-slate-600 dark:text-slate-300">
          Checkout canceled. You have not been charged.
        </p>
        <Actions
          primary={{ to: '/pricing', label: 'Back to pricing' }}
          secondary={{ to: '/dashboard', label: 'Go to dashboard' }}
        />
      </Frame>
    );
  }
  if (!signedIn) {
    return (
      <Frame title="Payment">
        <p className="mt-3 text-slate-600 dark:text-slate-300">Sign in to see your plan.</p>
        <Actions primary={{ to: '/login', label: 'Sign In' }} />
      </Frame>
    );
  }
  if (confirmed === null) {
    return (
      <Frame title="Confirming your payment">
        <div role="status" className="mt-4 grid gap-3 text-slate-600 dark:text-slate-300">
          <p className="flex items-center gap-3">
            <span
              className="size-5 shrink-0 animate-spin rounded-full border-2 border-violet-500 border-t-transparent"
              aria-hidden="true"
            />
            Confirming your payment with Stripe...
          </p>
          {slow && (
            <p>
              This can take a minute. You can leave this page: your new plan will appear here, and everywhere in the
              app, by itself.
            </p>
          )}
        </div>
      </Frame>
    );
  }

  const facts = PLAN_FACTS[confirmed];
  return (
    <Frame title={`You're on ${facts.title}`}>
      <div role="status" className="mt-4 grid gap-3">
        <p className="text-slate-600 dark:text-slate-300">Your payment is confirmed. Thank you!</p>
        <ul
          aria-label={`${facts.title} plan`}
          className="grid gap-2 rounded-2xl border border-violet-200 bg-violet-50 p-5 text-slate-800 dark:border-violet-500/30 dark:bg-violet-500/10 dark:text-slate-100"
        >
          <li>{allowanceInWords(facts)}</li>
          <li>{watermarkInWords(facts)}</li>
        </ul>
      </div>
      <Actions primary={{ to: '/dashboard', label: 'Start creating' }} />
    </Frame>
  );
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="card p-8">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
      {children}
    </div>
  );
}

interface Destination {
  to: string;
  label: string;
}

function Actions({ primary, secondary }: { primary: Destination; secondary?: Destination }) {
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      <Link to={primary.to} className="btn-primary">
        {primary.label}
      </Link>
      {secondary !== undefined && (
        <Link to={secondary.to} className="btn-secondary">
          {secondary.label}
        </Link>
      )}
    </div>
  );
}
