import aaravMehta from '@/assets/team/aarav-mehta.svg';
import danielOkafor from '@/assets/team/daniel-okafor.svg';
import sofiaLindqvist from '@/assets/team/sofia-lindqvist.svg';

/**
 * Spec §3: a team member has name, role, image, bio and social.linkedin. The team shown is illustrative
 * and has no public profiles: a null profile shows no link rather than one to linkedin.com itself.
 */
export interface TeamMember {
  name: string;
  role: string;
  image: string;
  bio: string;
  social: { linkedin: string | null };
}

export const TEAM: readonly TeamMember[] = [
  {
    name: 'Sofia Lindqvist',
    role: 'CTO',
    image: sofiaLindqvist,
    bio: 'Leads our generation platform, from the job queue to the models behind every image, video and voice.',
    social: { linkedin: null },
  },
  {
    name: 'Aarav Mehta',
    role: 'Founder & CEO',
    image: aaravMehta,
    bio: 'Started MediaGen to put studio-grade media tools in the hands of every creator and small business.',
    social: { linkedin: null },
  },
  {
    name: 'Daniel Okafor',
    role: 'CFO',
    image: danielOkafor,
    bio: 'Keeps MediaGen sustainable and our pricing simple, so creators always know what they pay for.',
    social: { linkedin: null },
  },
];
