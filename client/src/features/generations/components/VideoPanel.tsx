import { useId, useState } from 'react';
import { VideoIcon } from '@/components/ui/icons';
import { useGenerateAfterSignIn } from '../hooks/use-generate-after-sign-in';
import { useGenerationJob } from '../hooks/use-generation-job';
import { FreeMarkNotice } from './FreeMarkNotice';
import { GenerateButton } from './GenerateButton';
import { OutOfTokensHint } from './OutOfTokensHint';
import { GenerationStatus } from './GenerationStatus';
import { PanelCard } from './PanelCard';
import { PromptField } from './PromptField';
import { ResultFrame } from './ResultFrame';
import { DEFAULT_VIDEO_CHOICES, VideoSettings, videoRequestFields, type VideoChoices } from './VideoSettings';
import type { GeneratorPanelProps } from './generator-panel-props';

export function VideoPanel({
  signedIn,
  onRequireSignIn,
  onBalanceChange,
  balance,
  plan = 'free',
}: GeneratorPanelProps) {
  const outOfTokens = signedIn && balance?.left === 0;
  const hintId = useId();
  const [prompt, setPrompt] = useState('');
  const [choices, setChoices] = useState<VideoChoices>(DEFAULT_VIDEO_CHOICES);
  const job = useGenerationJob('video', onBalanceChange, () => {
    setPrompt('');
    setChoices(DEFAULT_VIDEO_CHOICES);
  });
  const video = job.generation?.status === 'completed' ? job.generation.result : undefined;

  const generateAfterSignIn = useGenerateAfterSignIn(signedIn, generate);

  function generate() {
    if (!signedIn) return onRequireSignIn(prompt.trim() === '' ? undefined : generateAfterSignIn);
    // Spec §4: a generation without a token is refused with the exhausted toast; known here, it needs no request.
    if (outOfTokens && balance) return job.refuseExhausted(balance);
    void job.submit({ kind: 'video', prompt, ...videoRequestFields(choices, plan) });
  }

  return (
    <PanelCard title="Video" description="Bring a scene to life in motion" icon={<VideoIcon />} onReset={job.reset}>
      <PromptField
        label="Video prompt"
        value={prompt}
        onChange={setPrompt}
        placeholder={
          signedIn ? 'Describe the video scene you want to generate...' : 'Please sign in to generate videos'
        }
      />
      <VideoSettings value={choices} plan={plan} disabled={job.busy} onChange={setChoices} />
      <GenerateButton
        signedIn={signedIn}
        describedBy={outOfTokens ? hintId : undefined}
        busy={job.busy}
        blank={prompt.trim() === ''}
        idleLabel="Generate Video"
        busyLabel="Generating..."
        signedOutLabel="Sign in to Generate"
        onGenerate={generate}
      />
      {outOfTokens && balance && <OutOfTokensHint id={hintId} kind="video" resetsAt={balance.resetsAt} />}
      <GenerationStatus job={job} />
      <ResultFrame shape="wide" icon={<VideoIcon />} emptyHint="Your generated video will appear here">
        {video && (
          <video
            src={video.url}
            controls
            playsInline
            aria-label="Generated video"
            className="size-full bg-black object-contain"
          >
            <track kind="captions" />
          </video>
        )}
      </ResultFrame>
      {video && <FreeMarkNotice plan={balance?.plan} />}
    </PanelCard>
  );
}
