import type { CreatedApiKey } from '@mediagen/shared';
import { OneTimeSecret } from '@/components/ui/OneTimeSecret';

/** The one time a key's secret is shown: copy it now, it is kept nowhere. */
export function NewKeySecret({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  return (
    <OneTimeSecret
      title={`Your new key “${apiKey.name}”`}
      label="API key"
      secret={apiKey.secret}
      warning="Copy it now: you won’t see it again. We keep only a fingerprint of it."
      onDone={onDone}
    />
  );
}
