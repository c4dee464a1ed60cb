import { UPTIME_CLAIM } from '@mediagen/shared';
import { BoltIcon, LinkedInIcon, ShieldIcon, UsersIcon } from '@/components/ui/icons';
import { TEAM } from '@/features/marketing/content/team';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

const VALUES = [
  {
    icon: BoltIcon,
    title: 'Lightning Fast',
    text: 'Images and speech in seconds, videos in minutes, with live progress while you wait.',
  },
  { icon: ShieldIcon, title: 'Enterprise Grade', text: `${UPTIME_CLAIM} uptime guarantee` },
  { icon: UsersIcon, title: 'Community Driven', text: 'Shaped by the feedback of thousands of creators.' },
];

export function AboutPage() {
  useDocumentTitle('About Us');
  return (
    <div className="mx-auto grid max-w-7xl gap-20 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="About Us" title="Our Vision">
        <p>
          We believe everyone has stories worth telling. MediaGen turns imagination into images, videos and voices, so
          creators and businesses can bring ideas to life in minutes instead of weeks.
        </p>
      </PageHeader>

      <section aria-labelledby="values-title">
        <h2 id="values-title" className="sr-only">
          Our values
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="card p-7">
              <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{title}</h3>
              <p className="mt-2 text-slate-600 dark:text-slate-400">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="team-title" className="grid gap-10">
        <h2 id="team-title" className="text-center text-3xl font-bold text-slate-900 dark:text-white">
          Meet Our Team
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {TEAM.map((member) => (
            <li key={member.name} className="card flex flex-col items-center p-7 text-center">
              <img
                src={member.image}
                alt={`Photo of ${member.name}`}
                width={112}
                height={112}
                loading="lazy"
                className="size-28 rounded-full object-cover ring-4 ring-violet-500/20"
              />
              <h3 className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{member.name}</h3>
              <p className="text-sm font-medium text-violet-600 dark:text-violet-400">{member.role}</p>
              <p className="mt-3 flex-1 text-slate-600 dark:text-slate-400">{member.bio}</p>
              {member.social.linkedin !== null && (
                <a
                  href={member.social.linkedin}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="btn-icon mt-4"
                  aria-label={`${member.name} on LinkedIn`}
                >
                  <LinkedInIcon />
                </a>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
