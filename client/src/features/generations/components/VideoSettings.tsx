import {
  PLAN_IDS,
  VIDEO_DEFAULTS,
  VIDEO_DURATIONS,
  videoOptionsForPlan,
  type PlanId,
  type VideoDuration,
  type VideoOption,
  type VideoQuality,
} from '@mediagen/shared';
import { SelectField } from '@/components/ui/SelectField';
import { lockedLabel, planUnlocking } from '../plan-locks';
import { PanelSettings } from './PanelSettings';

/** What the creator chose; `picture: null` is the plan's own default model and resolution. */
export interface VideoChoices {
  picture: string | null;
  duration: VideoDuration;
  quality: VideoQuality;
}

export const DEFAULT_VIDEO_CHOICES: VideoChoices = {
  picture: null,
  duration: VIDEO_DEFAULTS.durationSeconds,
  quality: VIDEO_DEFAULTS.quality,
};

const QUALITY_LABELS: Record<VideoQuality, string> = { draft: 'Draft (starts sooner)', standard: 'Standard', hd: 'HD' };
const MODEL_TITLES: Record<VideoOption['model'], string> = { 'T2V-01': 'T2V-01', 'MiniMax-Hailuo-2.3': 'Hailuo 2.3' };

const keyOf = (option: VideoOption) => `${option.model} ${option.resolution}`;

/** Every picture some plan makes, cheapest plan's first: the ones the creator's plan lacks are shown locked. */
const EVERY_PICTURE: readonly VideoOption[] = PLAN_IDS.flatMap((plan) => videoOptionsForPlan(plan).options).filter(
  (option, index, all) => all.findIndex((other) => keyOf(other) === keyOf(option)) === index,
);

function pictureOf(choices: VideoChoices, plan: PlanId): VideoOption {
  const { defaultModel, options } = videoOptionsForPlan(plan);
  return (
    options.find((option) => keyOf(option) === choices.picture) ??
    options.find((option) => option.model === defaultModel && option.qualities.includes(VIDEO_DEFAULTS.quality)) ??
    options[0]!
  );
}

/** The request fields the choices make: what a picture renders, the plan's default left for the server. */
export function videoRequestFields(choices: VideoChoices, plan: PlanId) {
  const picture = pictureOf(choices, plan);
  return {
    quality: picture.qualities.includes(choices.quality) ? choices.quality : picture.qualities[0]!,
    duration: picture.durations.includes(choices.duration) ? choices.duration : picture.durations[0]!,
    style: VIDEO_DEFAULTS.style,
    ...(choices.picture === null ? {} : { model: picture.model, resolution: picture.resolution }),
  };
}

interface VideoSettingsProps {
  value: VideoChoices;
  plan: PlanId;
  disabled: boolean;
  onChange: (value: VideoChoices) => void;
}

export function VideoSettings({ value, plan, disabled, onChange }: VideoSettingsProps) {
  const offered = videoOptionsForPlan(plan).options.map(keyOf);
  const picture = pictureOf(value, plan);
  const sent = videoRequestFields(value, plan);
  const summary = `${MODEL_TITLES[picture.model]} · ${picture.resolution} · ${sent.duration} s`;
  const set = (change: Partial<VideoChoices>) => onChange({ ...value, ...change });

  return (
    <PanelSettings label="Video settings" summary={summary}>
      <SelectField
        label="Model and resolution"
        value={keyOf(picture)}
        disabled={disabled}
        onChange={(next) => set({ picture: next })}
      >
        {EVERY_PICTURE.map((option) => {
          const included = offered.includes(keyOf(option));
          const unlockedBy = included
            ? undefined
            : planUnlocking((p) => videoOptionsForPlan(p).options.some((other) => keyOf(other) === keyOf(option)));
          return (
            <option key={keyOf(option)} value={keyOf(option)} disabled={!included}>
              {lockedLabel(`${MODEL_TITLES[option.model]} · ${option.resolution}`, unlockedBy)}
            </option>
          );
        })}
      </SelectField>
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          label="Length"
          value={String(sent.duration)}
          disabled={disabled}
          onChange={(seconds) => set({ duration: Number(seconds) as VideoDuration })}
        >
          {VIDEO_DURATIONS.map((seconds) => (
            <option key={seconds} value={seconds} disabled={!picture.durations.includes(seconds)}>
              {seconds} seconds
            </option>
          ))}
        </SelectField>
        <SelectField label="Quality" value={sent.quality} disabled={disabled} onChange={(quality) => set({ quality })}>
          {picture.qualities.map((quality) => (
            <option key={quality} value={quality}>
              {QUALITY_LABELS[quality]}
            </option>
          ))}
        </SelectField>
      </div>
      {picture.durations.length === 1 && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {MODEL_TITLES[picture.model]} renders {picture.resolution} in {picture.durations[0]}-second clips only.
        </p>
      )}
    </PanelSettings>
  );
}
