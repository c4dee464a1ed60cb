import type { SpeechModelInfo } from '@mediagen/shared';
import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api-client';

/** The speech model in use, for the voice each choice is read with; null until known (or when signed out). */
export function useSpeechModel(enabled: boolean): SpeechModelInfo | null {
  const [info, setInfo] = useState<SpeechModelInfo | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    apiRequest<SpeechModelInfo>('/api/speech').then(
      (read) => {
        if (current) setInfo(read);
      },
      // Only a hint: the generation itself says which voice read it.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [enabled]);
  return enabled ? info : null;
}
