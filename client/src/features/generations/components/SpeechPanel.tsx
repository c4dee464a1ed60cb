import { ERROR_MESSAGES, MAX_SPEECH_INPUT_LENGTH } from '@mediagen/shared';
import { useId, useRef, useState } from 'react';
import { PauseIcon, PlayIcon, WaveIcon } from '@/components/ui/icons';
import { notify } from '@/lib/notify';
import { useSpeechModel } from '../api/get-speech-model';
import { useGenerationJob } from '../hooks/use-generation-job';
import { speechSummary } from '../speech-texts';
import { FreeMarkNotice } from './FreeMarkNotice';
import { GenerateButton } from './GenerateButton';
import { OutOfTokensHint } from './OutOfTokensHint';
import { GenerationStatus } from './GenerationStatus';
import { PanelCard } from './PanelCard';
import { PromptField } from './PromptField';
import { DEFAULT_SPEECH_CHOICES, SpeechSettings, type SpeechChoices } from './SpeechSettings';
import { EMPTY_CUSTOMIZATION, VoiceSelectors, type VoiceCustomization } from './VoiceSelectors';
import type { GeneratorPanelProps } from './generator-panel-props';

export function SpeechPanel({ signedIn, onRequireSignIn, onBalanceChange, balance }: GeneratorPanelProps) {
  const outOfTokens = signedIn && balance?.left === 0;
  const hintId = useId();
  const [text, setText] = useState('');
  const [customization, setCustomization] = useState<VoiceCustomization>(EMPTY_CUSTOMIZATION);
  const [choices, setChoices] = useState<SpeechChoices>(DEFAULT_SPEECH_CHOICES);
  const [playing, setPlaying] = useState(false);
  const audioRef = useRef<HTMLAudioElement>(null);
  const job = useGenerationJob('speech', onBalanceChange, clearInputs);
  const speechModel = useSpeechModel(signedIn);
  const audio = job.generation?.status === 'completed' ? job.generation.result : undefined;
  const readAs = job.generation?.speech;

  function generate() {
    if (!signedIn) return onRequireSignIn();
    // Spec §4: a generation without a token is refused with the exhausted toast; known here, it needs no request.
    if (outOfTokens && balance) return job.refuseExhausted(balance);
    const { language, voice } = customization;
    if (language === '' || voice === '') {
      notify.error(ERROR_MESSAGES.SPEECH_OPTIONS_REQUIRED);
      return;
    }
    stopPlayback();
    void job.submit({ kind: 'speech', input: text, voice, language, ...choices });
  }

  function togglePlayback() {
    if (!signedIn) return onRequireSignIn();
    const element = audioRef.current;
    if (element === null) return;
    if (playing) {
      element.pause();
      return;
    }
    element.play().then(
      () => setPlaying(true),
      () => failPlayback(),
    );
  }

  function failPlayback() {
    // Spec §4: a playback error shows an error toast and stops.
    notify.error(ERROR_MESSAGES.AUDIO_PLAY_FAILED);
    stopPlayback();
  }

  function stopPlayback() {
    audioRef.current?.pause();
    setPlaying(false);
  }

  function clearInputs() {
    stopPlayback();
    setText('');
    setCustomization(EMPTY_CUSTOMIZATION);
    setChoices(DEFAULT_SPEECH_CHOICES);
  }

  return (
    <PanelCard title="Speech" description="Give your words a natural voice" icon={<WaveIcon />} onReset={job.reset}>
      <PromptField
        label="Text to speak"
        value={text}
        onChange={setText}
        disabled={!signedIn}
        maxLength={MAX_SPEECH_INPUT_LENGTH}
        placeholder={signedIn ? 'Enter the text you want to convert to speech...' : 'Please sign in to generate speech'}
      />
      <VoiceSelectors
        value={customization}
        disabled={job.busy}
        onChange={setCustomization}
        readBy={speechModel?.voices}
      />
      <SpeechSettings value={choices} disabled={job.busy} speedRange={speechModel?.speed} onChange={setChoices} />
      <GenerateButton
        signedIn={signedIn}
        describedBy={outOfTokens ? hintId : undefined}
        busy={job.busy}
        blank={text.trim() === ''}
        idleLabel="Generate Speech"
        signedOutLabel="Sign in to Generate"
        onGenerate={generate}
      />
      {outOfTokens && balance && <OutOfTokensHint id={hintId} kind="speech" resetsAt={balance.resetsAt} />}
      <GenerationStatus job={job} />
      {audio && (
        <div className="flex items-center gap-4 rounded-xl border border-slate-200 bg-slate-100/60 p-3 dark:border-slate-700 dark:bg-slate-800/40">
          <button
            type="button"
            className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-600 to-fuchsia-600 text-white shadow-lg shadow-violet-600/30 transition hover:scale-105"
            aria-label={playing ? 'Pause audio' : 'Play audio'}
            onClick={togglePlayback}
          >
            {playing ? <PauseIcon /> : <PlayIcon />}
          </button>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <SoundBars active={playing} />
            {readAs !== undefined && (
              <p className="truncate text-xs text-slate-600 dark:text-slate-300">{speechSummary(readAs)}</p>
            )}
          </div>
          <audio
            ref={audioRef}
            src={audio.url}
            preload="auto"
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            onError={() => {
              if (playing) failPlayback();
            }}
          />
        </div>
      )}
      {audio && <FreeMarkNotice plan={balance?.plan} />}
    </PanelCard>
  );
}

const BAR_HEIGHTS = [40, 70, 55, 90, 60, 80, 45, 75, 50, 85, 65, 40, 70, 55, 35];

function SoundBars({ active }: { active: boolean }) {
  return (
    <div className="flex h-10 w-full items-center gap-1" aria-hidden="true">
      {BAR_HEIGHTS.map((height, index) => (
        <span
          key={index}
          className={`w-1.5 rounded-full bg-violet-400/70 dark:bg-violet-400/60 ${active ? 'animate-pulse' : ''}`}
          style={{ height: `${height}%`, animationDelay: `${index * 80}ms` }}
        />
      ))}
    </div>
  );
}
