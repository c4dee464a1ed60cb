import { useState } from 'react';
import portraitFallback from '@/assets/portrait-fallback.svg';
import portrait from '@/assets/portrait.svg';

/** Spec §2: 240, 320 and 400 px on mobile, tablet and desktop; a fallback replaces it if it fails to load. */
export function HeroPortrait() {
  const [source, setSource] = useState(portrait);
  return (
    <div className="relative">
      <div
        className="absolute -inset-6 rounded-full bg-gradient-to-tr from-violet-500/40 to-fuchsia-500/40 blur-3xl"
        aria-hidden="true"
      />
      <img
        src={source}
        onError={() => setSource(portraitFallback)}
        alt="Portrait of a creator made with MediaGen"
        width={400}
        height={400}
        className="relative size-60 rounded-full border-4 border-white object-cover shadow-2xl sm:size-80 lg:size-[400px] dark:border-slate-800"
      />
    </div>
  );
}
