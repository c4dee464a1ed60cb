import { ERROR_MESSAGES, normalizePromptText, parsePromptSyntax } from '@mediagen/shared';
import { useEffect, useId, useState } from 'react';
import { DownloadIcon, ImageIcon } from '@/components/ui/icons';
import { onFirstInteraction } from '@/lib/first-interaction';
import { notify } from '@/lib/notify';
import { useGenerateAfterSignIn } from '../hooks/use-generate-after-sign-in';
import { useGenerationJob } from '../hooks/use-generation-job';
import { resultFileName } from '../result-file-name';
import { downloadFile } from '../utils/download-file';
import { FreeMarkNotice } from './FreeMarkNotice';
import { GenerateButton } from './GenerateButton';
import { OutOfTokensHint } from './OutOfTokensHint';
import { GenerationStatus } from './GenerationStatus';
import { useImageDraftStore } from '../stores/image-draft-store';
import { ImageSetGrid } from './ImageSetGrid';
import {
  DEFAULT_IMAGE_CHOICES,
  ImageSettings,
  choicesOf,
  imageRequestFields,
  type ImageChoices,
} from './ImageSettings';
import { PanelCard } from './PanelCard';
import { PromptField } from './PromptField';
import { PromptReading } from './PromptReading';
import { ResultFrame } from './ResultFrame';
import type { GeneratorPanelProps } from './generator-panel-props';

const loadModeration = () => import('@mediagen/shared/moderation');

export function ImagePanel({
  signedIn,
  onRequireSignIn,
  onBalanceChange,
  balance,
  plan = 'free',
}: GeneratorPanelProps) {
  const outOfTokens = signedIn && balance?.left === 0;
  const hintId = useId();
  const readingId = useId();
  const [prompt, setPrompt] = useState('');
  const [choices, setChoices] = useState<ImageChoices>(DEFAULT_IMAGE_CHOICES);
  // Read as the API reads it: after the same normalising.
  const reading = parsePromptSyntax(normalizePromptText(prompt, { keepLineBreaks: false }));
  const job = useGenerationJob('image', onBalanceChange, () => {
    setPrompt('');
    setChoices(DEFAULT_IMAGE_CHOICES);
  });
  const image = job.generation?.status === 'completed' ? job.generation.result : undefined;
  const imageSet =
    job.generation?.status === 'completed' && (job.generation.outputs?.length ?? 0) > 1 ? job.generation : undefined;

  // "Same seed again" from the library: its prompt, settings and seed, filled in and sent only on Generate.
  useEffect(() => {
    const draft = useImageDraftStore.getState().take();
    if (draft === null) return;
    setPrompt(draft.prompt);
    setChoices(choicesOf(draft.image, draft.seed, plan));
  }, [plan]);

  // The moderation check carries Unicode's confusables (about 30 kB): fetched once the creator starts
  // typing or clicking, never with the page.
  useEffect(() => onFirstInteraction(() => void loadModeration()), []);

  const generateAfterSignIn = useGenerateAfterSignIn(signedIn, () => void generate());

  async function generate() {
    if (!signedIn) return onRequireSignIn(prompt.trim() === '' ? undefined : generateAfterSignIn);
    // Spec §4: a generation without a token is refused with the exhausted toast; known here, it needs no request.
    if (outOfTokens && balance) return job.refuseExhausted(balance);
    // The API refuses syntax it cannot read; the panel already says why, next to the prompt.
    if (!reading.ok) {
      notify.error(reading.message);
      return;
    }
    // The server refuses a blocked prompt anyway; saying so here spares a 'Preparing…' that leads nowhere.
    const { moderateImagePrompt } = await loadModeration();
    const moderation = moderateImagePrompt(prompt);
    if (!moderation.allowed) {
      notify.error(moderation.message);
      return;
    }
    void job.submit({ kind: 'image', prompt, ...imageRequestFields(choices, plan) });
  }

  async function download() {
    if (image === undefined || job.generation === undefined) {
      notify.error(ERROR_MESSAGES.IMAGE_DOWNLOAD_MISSING);
      return;
    }
    try {
      await downloadFile(image.url, resultFileName(job.generation));
      notify.success('Image downloaded successfully!');
    } catch {
      notify.error('Failed to download image');
    }
  }

  return (
    <PanelCard
      title="Image"
      description="Turn a description into a picture"
      icon={<ImageIcon />}
      onReset={job.reset}
      actions={
        <button
          type="button"
          className="btn-icon"
          aria-label="Download image"
          title="Download"
          onClick={() => void download()}
        >
          <DownloadIcon />
        </button>
      }
    >
      <PromptField
        label="Image prompt"
        value={prompt}
        onChange={setPrompt}
        placeholder={signedIn ? 'Describe the image you want to generate...' : 'Please sign in to generate images'}
        describedBy={readingId}
        footer={<PromptReading id={readingId} reading={reading} />}
      />
      <ImageSettings value={choices} plan={plan} disabled={job.busy} onChange={setChoices} />
      <GenerateButton
        signedIn={signedIn}
        describedBy={outOfTokens ? hintId : undefined}
        busy={job.busy}
        blank={prompt.trim() === ''}
        idleLabel="Generate Image"
        onGenerate={() => void generate()}
      />
      {outOfTokens && balance && <OutOfTokensHint id={hintId} kind="image" resetsAt={balance.resetsAt} />}
      <GenerationStatus job={job} />
      {imageSet !== undefined ? (
        <ImageSetGrid generation={imageSet} />
      ) : (
        <ResultFrame shape="square" icon={<ImageIcon />} emptyHint="Your generated image will appear here">
          {image && (
            <img
              src={image.url}
              alt={`Generated image: ${job.generation?.prompt ?? ''}`}
              className="size-full object-cover"
            />
          )}
        </ResultFrame>
      )}
      {image && <FreeMarkNotice plan={balance?.plan} />}
    </PanelCard>
  );
}
