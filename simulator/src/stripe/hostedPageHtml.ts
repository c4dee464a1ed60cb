import escapeHtml from 'escape-html';
import type { StripePriceSpec } from './stripeCatalogue';

/** A value placed in the page's HTML, escaped; `raw` marks markup this module built itself. */
export type Html = { readonly raw: string };

export function html(strings: TemplateStringsArray, ...values: (string | number | Html | Html[])[]): Html {
  const text = strings.reduce((out, part, index) => {
    if (index === 0) return part;
    return out + render(values[index - 1]!) + part;
  }, '');
  return { raw: text };
}

function render(value: string | number | Html | Html[]): string {
  if (Array.isArray(value)) return value.map((item) => item.raw).join('');
  if (typeof value === 'object') return value.raw;
  return escapeHtml(String(value));
}

/**
 * The stand-in's pages: plain, accessible HTML with no script, so a form post is all a test needs. The empty
 * icon keeps the browser from asking for /favicon.ico, which the simulator does not serve (a 404 the
 * browser logs as an error).
 */
export function page(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>${title}</title>
        <style>
          body {
            font-family: system-ui, sans-serif;
            max-width: 36rem;
            margin: 2rem auto;
            padding: 0 1rem;
            color: #1a1a2e;
          }
          .test-mode {
            background: #ffde92;
            color: #5c3b00;
            padding: 0.25rem 0.5rem;
            border-radius: 0.25rem;
            display: inline-block;
          }
          form {
            display: inline-block;
            margin: 0.25rem 0.5rem 0.25rem 0;
          }
          button {
            font: inherit;
            padding: 0.5rem 1rem;
            cursor: pointer;
          }
          [role='alert'] {
            color: #b00020;
            font-weight: 600;
          }
          table {
            border-collapse: collapse;
            width: 100%;
          }
          td,
          th {
            text-align: left;
            padding: 0.25rem 0.5rem;
            border-bottom: 1px solid #ddd;
          }
        </style>
      </head>
      <body>
        <main>
          <p class="test-mode">Stripe stand-in · test mode</p>
          ${body}
        </main>
      </body>
    </html> `.raw;
}

export function postButton(action: string, label: string, fields: Record<string, string> = {}): Html {
  const hidden = Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  return html`<form method="post" action="${action}">${hidden}<button type="submit">${label}</button></form>`;
}

/** `$279.00 per year`. */
export function priceLabel(spec: StripePriceSpec): string {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: spec.currency }).format(
    spec.unitAmount / 100,
  );
  return `${amount} per ${spec.interval}`;
}

/** `Pro yearly`. */
export function planLabel(spec: StripePriceSpec): string {
  return `${spec.productName} ${spec.interval === 'year' ? 'yearly' : 'monthly'}`;
}

export function dateLabel(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
