import type { ComponentType, SVGProps } from 'react';
import { BookIcon, HomeIcon, InfoIcon, SparklesIcon, TagIcon } from '@/components/ui/icons';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/** Spec §2: the top bar and the mobile bottom bar list the same five pages. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home', icon: HomeIcon },
  { to: '/about', label: 'About Us', icon: InfoIcon },
  { to: '/services', label: 'Services', icon: SparklesIcon },
  { to: '/pricing', label: 'Pricing', icon: TagIcon },
  { to: '/guide', label: 'Guide', icon: BookIcon },
];
