import { SPEECH_DEFAULTS, SPEECH_FORMATS, SPEECH_SPEED_RANGE, type SpeechFormat } from '@mediagen/shared';
import { useId } from 'react';
import { SelectField } from '@/components/ui/SelectField';
import { PanelSettings } from './PanelSettings';

export interface SpeechChoices {
  speed: number;
  format: SpeechFormat;
}

export const DEFAULT_SPEECH_CHOICES: SpeechChoices = { speed: SPEECH_DEFAULTS.speed, format: SPEECH_DEFAULTS.format };

const FORMAT_LABELS: Record<SpeechFormat, string> = {
  mp3: 'MP3 (smallest)',
  wav: 'WAV (uncompressed)',
  opus: 'Opus (for streaming)',
  flac: 'FLAC (lossless)',
};

interface SpeechSettingsProps {
  value: SpeechChoices;
  disabled: boolean;
  /** The speed range of the speech model in use; the API's widest range until it is known. */
  speedRange: { min: number; max: number } | undefined;
  onChange: (value: SpeechChoices) => void;
}

export function SpeechSettings({ value, disabled, speedRange = SPEECH_SPEED_RANGE, onChange }: SpeechSettingsProps) {
  const speedId = useId();
  const speed = formatSpeed(value.speed);
  return (
    <PanelSettings label="Speech settings" summary={`${speed} · ${value.format.toUpperCase()}`}>
      <div>
        <label htmlFor={speedId} className="field-label">
          Speed <output htmlFor={speedId}>{speed}</output>
        </label>
        <input
          id={speedId}
          type="range"
          className="w-full accent-violet-600"
          min={speedRange.min}
          max={speedRange.max}
          step={0.05}
          disabled={disabled}
          value={value.speed}
          aria-valuetext={speed}
          onChange={(event) => onChange({ ...value, speed: Number(event.target.value) })}
        />
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          From {formatSpeed(speedRange.min)} to {formatSpeed(speedRange.max)}, what the speech model reads at.
        </p>
      </div>
      <SelectField
        label="File format"
        value={value.format}
        disabled={disabled}
        onChange={(format) => onChange({ ...value, format })}
      >
        {SPEECH_FORMATS.map((format) => (
          <option key={format} value={format}>
            {FORMAT_LABELS[format]}
          </option>
        ))}
      </SelectField>
    </PanelSettings>
  );
}

function formatSpeed(speed: number): string {
  return `${Number(speed.toFixed(2))}×`;
}
