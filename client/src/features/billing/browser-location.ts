/**
 * Leaving the app for a page Stripe hosts. One object the billing code calls, so a test can watch where the
 * browser was sent without a real navigation (jsdom cannot leave the page).
 */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
