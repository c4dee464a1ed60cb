import type { ComponentType, SVGProps } from 'react';
import {
  BoltIcon,
  CheckIcon,
  ImageIcon,
  SlidersIcon,
  TargetIcon,
  VideoIcon,
  WandIcon,
  WaveIcon,
} from '@/components/ui/icons';
import { CAPABILITIES, TOOLS } from '@/features/marketing/content/services';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const TOOL_ICONS: Record<(typeof TOOLS)[number]['id'], Icon> = { image: ImageIcon, video: VideoIcon, speech: WaveIcon };
const CAPABILITY_ICONS: Record<(typeof CAPABILITIES)[number]['id'], Icon> = {
  style: SlidersIcon,
  speed: BoltIcon,
  enhance: WandIcon,
  precision: TargetIcon,
};

export function ServicesPage() {
  useDocumentTitle('Services');
  return (
    <div className="mx-auto grid max-w-7xl gap-20 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Services" title="Everything you need to create">
        <p>Three AI studios in one place, each tuned for quality and speed.</p>
      </PageHeader>

      <ul className="grid gap-6 lg:grid-cols-3">
        {TOOLS.map((tool) => {
          const Icon = TOOL_ICONS[tool.id];
          return (
            <li key={tool.id} className="card flex flex-col p-7">
              <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white">
                <Icon className="size-6" />
              </span>
              <h2 className="mt-5 text-xl font-semibold text-slate-900 dark:text-white">{tool.title}</h2>
              <p className="mt-2 text-slate-600 dark:text-slate-400">{tool.summary}</p>
              <ul className="mt-5 grid gap-2.5 text-sm">
                {tool.bullets.map((bullet) => (
                  <li key={bullet} className="flex gap-2 text-slate-700 dark:text-slate-300">
                    <CheckIcon className="size-5 shrink-0 text-emerald-500" />
                    {bullet}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>

      <section aria-labelledby="capabilities-title" className="grid gap-8">
        <h2 id="capabilities-title" className="text-center text-3xl font-bold text-slate-900 dark:text-white">
          More capabilities
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {CAPABILITIES.map((capability) => {
            const Icon = CAPABILITY_ICONS[capability.id];
            return (
              <li key={capability.id} className="card p-6">
                <Icon className="size-6 text-violet-600 dark:text-violet-400" />
                <h3 className="mt-4 font-semibold text-slate-900 dark:text-white">{capability.title}</h3>
                <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{capability.text}</p>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
