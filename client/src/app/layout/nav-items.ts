import type { ComponentType, SVGProps } from 'react';
import { BookIcon, HomeIcon, InfoIcon, LibraryIcon, SparklesIcon, TagIcon } from '@/components/ui/icons';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/** Spec §2: the top bar and the mobile bottom bar list the same five pages (and Library once signed in). */
const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home', icon: HomeIcon },
  { to: '/about', label: 'About Us', icon: InfoIcon },
  { to: '/services', label: 'Services', icon: SparklesIcon },
  { to: '/pricing', label: 'Pricing', icon: TagIcon },
  { to: '/guide', label: 'Guide', icon: BookIcon },
];

/** A creator's own work is a place they go back to often: named in both bars, not only in the account menu. */
const SIGNED_IN_NAV_ITEMS: readonly NavItem[] = [...NAV_ITEMS, { to: '/library', label: 'Library', icon: LibraryIcon }];

export function navItemsFor(signedIn: boolean): readonly NavItem[] {
  return signedIn ? SIGNED_IN_NAV_ITEMS : NAV_ITEMS;
}
