export type PolicyId = 'terms' | 'privacy' | 'conduct';

interface Policy {
  title: string;
  /** `link`: where the section's promise is kept (the support form), shown after its text. */
  sections: { heading: string; body: string; link?: { to: string; label: string } }[];
}

/** Static policy text shown from the dashboard footer (spec §2). */
export const POLICIES: Record<PolicyId, Policy> = {
  terms: {
    title: 'Terms of Use',
    sections: [
      {
        heading: 'Using MediaGen',
        body: 'By creating an account you agree to use MediaGen to generate images, videos and speech lawfully and in line with our Code of Conduct. You are responsible for the prompts you submit and for how you use what you generate.',
      },
      {
        heading: 'Free tier',
        body: 'The free tier is for personal, non-commercial use only. Free output carries a MediaGen watermark and comes with a limited number of generations that reset every 30 days.',
      },
      {
        heading: 'Paid plans and enterprise',
        body: 'Pro and Enterprise subscribers may use their output commercially. Enterprise users additionally receive API access for integrating generation into their own products, subject to their agreement.',
      },
      {
        heading: 'Availability',
        body: 'We aim for 99.9% uptime but may suspend the service for maintenance or to protect it from abuse. We may change these terms and will say so here when we do.',
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    sections: [
      {
        heading: 'What we collect',
        body: 'Your email address and sign-in provider, the prompts you submit, and the media generated for you. We keep usage counts to apply your plan’s limits.',
      },
      {
        heading: 'How we use it',
        body: 'Only to run the service: to generate your media, deliver it to you, enforce limits and keep the service safe. Prompts are sent to our generation providers solely to produce your results.',
      },
      {
        heading: 'How long we keep it',
        body: 'Your generations and their files stay in your library until you delete them, or, where your plan has a retention period, until it ends: the file is then deleted and the library shows the item as expired.',
      },
      {
        heading: 'Your choices',
        body: 'You can delete any generation from your library, and delete your whole account from the account menu: your sign-in account, generations, files and sessions are deleted at once. So that deleting and signing up again does not renew free tokens, we keep an anonymous trace until the 30-day token period ends: a one-way hash of your email and how many tokens you used in that period. Your theme preference and sign-in state are stored in your browser only.',
      },
    ],
  },
  conduct: {
    title: 'Code of Conduct',
    sections: [
      {
        heading: 'Create responsibly',
        body: 'Do not generate sexual, violent, hateful or otherwise harmful content. Prompts containing inappropriate content are blocked automatically.',
      },
      {
        heading: 'Respect others',
        body: 'Do not impersonate real people, infringe intellectual property or use generated voices or videos to deceive.',
      },
      {
        heading: 'Enforcement',
        body: 'Accounts that break these rules may lose access to MediaGen. Report misuse to our support team.',
        link: { to: '/support?topic=report-misuse', label: 'Report misuse' },
      },
    ],
  },
};
