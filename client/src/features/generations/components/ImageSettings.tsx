import {
  ASPECT_RATIOS,
  DEFAULT_PLAN_RULES,
  MAX_IMAGE_SAMPLES,
  IMAGE_MODEL_RULES,
  IMAGE_MODELS,
  MAX_IMAGE_SEED,
  PLAN_IMAGE_MODELS,
  STABILITY_STYLE_PRESETS,
  type AspectRatio,
  type ImageDetails,
  type ImageModel,
  type ImageResolution,
  type PlanId,
  type StylePreset,
} from '@mediagen/shared';
import { useId } from 'react';
import { SelectField } from '@/components/ui/SelectField';
import { lockedLabel, planUnlocking } from '../plan-locks';
import { PanelSettings } from './PanelSettings';

/** What the creator chose; `model: null` is the plan's own default, whichever plan that turns out to be. */
export interface ImageChoices {
  model: ImageModel | null;
  aspectRatio: AspectRatio;
  resolution: ImageResolution;
  /** '': none named (the spec's photographic on the v1 engine, the model's own look elsewhere). */
  stylePreset: StylePreset | '';
  negativePrompt: string;
  /** Digits as typed; blank is a random seed. */
  seed: string;
  /** Images in the set, each one image token (the plan caps it). */
  count: number;
}

export const DEFAULT_IMAGE_CHOICES: ImageChoices = {
  model: null,
  aspectRatio: '1:1',
  resolution: 'standard',
  stylePreset: '',
  negativePrompt: '',
  seed: '',
  count: 1,
};

const IMAGE_COUNTS = Array.from({ length: MAX_IMAGE_SAMPLES }, (_, index) => index + 1);

/**
 * The choices an image was made with, its seed the one given: what "same seed again" opens the panel
 * with. A model the plan no longer includes falls back to the plan's own, as a run again does.
 */
export function choicesOf(image: ImageDetails, seed: number, plan: PlanId): ImageChoices {
  const model = image.model !== undefined && PLAN_IMAGE_MODELS[plan].models.includes(image.model) ? image.model : null;
  return {
    model,
    aspectRatio: image.aspectRatio ?? DEFAULT_IMAGE_CHOICES.aspectRatio,
    resolution: image.resolution === '4k' && PLAN_IMAGE_MODELS[plan].resolutions.includes('4k') ? '4k' : 'standard',
    stylePreset: image.stylePreset ?? '',
    negativePrompt: image.negativePrompt ?? '',
    seed: String(seed),
    // The one picture of that seed: a set would go on with the seeds after it.
    count: 1,
  };
}

const SHAPE_NAMES: Record<AspectRatio, string> = {
  '1:1': 'Square',
  '16:9': 'Widescreen',
  '21:9': 'Cinema',
  '3:2': 'Landscape photo',
  '5:4': 'Landscape print',
  '2:3': 'Portrait photo',
  '4:5': 'Portrait print',
  '9:16': 'Phone screen',
  '9:21': 'Tall banner',
};

/** The request fields the choices make for a plan: only what the model in use takes. */
export function imageRequestFields(choices: ImageChoices, plan: PlanId) {
  const model = choices.model ?? PLAN_IMAGE_MODELS[plan].defaultModel;
  const rules = IMAGE_MODEL_RULES[model];
  const negativePrompt = choices.negativePrompt.trim();
  return {
    ...(choices.model === null ? {} : { model }),
    ...(choices.aspectRatio === DEFAULT_IMAGE_CHOICES.aspectRatio ? {} : { aspectRatio: choices.aspectRatio }),
    ...(choices.resolution === 'standard' ? {} : { resolution: choices.resolution }),
    ...(rules.stylePreset && choices.stylePreset !== '' ? { stylePreset: choices.stylePreset } : {}),
    ...(rules.negativePrompt && negativePrompt !== '' ? { negativePrompt } : {}),
    ...(choices.seed === '' ? {} : { seed: Number(choices.seed) }),
    ...(choices.count > 1 ? { samples: choices.count } : {}),
  };
}

interface ImageSettingsProps {
  value: ImageChoices;
  plan: PlanId;
  disabled: boolean;
  onChange: (value: ImageChoices) => void;
}

export function ImageSettings({ value, plan, disabled, onChange }: ImageSettingsProps) {
  const ids = { negative: useId(), seed: useId() };
  const allowed = PLAN_IMAGE_MODELS[plan];
  const model = value.model ?? allowed.defaultModel;
  const rules = IMAGE_MODEL_RULES[model];
  const fourK = allowed.resolutions.includes('4k');
  const set = (change: Partial<ImageChoices>) => onChange({ ...value, ...change });
  const maxImages = DEFAULT_PLAN_RULES[plan].limits.maxImagesPerRequest;
  const summary = [
    rules.title,
    value.aspectRatio,
    value.resolution === '4k' ? '4K' : 'Standard',
    ...(value.count > 1 ? [`${value.count} images`] : []),
  ].join(' · ');

  return (
    <PanelSettings label="Image settings" summary={summary}>
      <SelectField label="Model" value={model} disabled={disabled} onChange={(next) => set({ model: next })}>
        {IMAGE_MODELS.map((option) => {
          const included = allowed.models.includes(option);
          const unlockedBy = included ? undefined : planUnlocking((p) => PLAN_IMAGE_MODELS[p].models.includes(option));
          return (
            <option key={option} value={option} disabled={!included}>
              {lockedLabel(IMAGE_MODEL_RULES[option].title, unlockedBy)}
            </option>
          );
        })}
      </SelectField>
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          label="Shape"
          value={value.aspectRatio}
          disabled={disabled}
          onChange={(aspectRatio) => set({ aspectRatio })}
        >
          {ASPECT_RATIOS.map((ratio) => (
            <option key={ratio} value={ratio}>
              {ratio} {SHAPE_NAMES[ratio]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Resolution"
          value={value.resolution}
          disabled={disabled}
          onChange={(resolution) => set({ resolution })}
        >
          <option value="standard">Standard</option>
          <option value="4k" disabled={!fourK}>
            {lockedLabel(
              '4K',
              fourK ? undefined : planUnlocking((p) => PLAN_IMAGE_MODELS[p].resolutions.includes('4k')),
            )}
          </option>
        </SelectField>
      </div>
      <SelectField
        label="Number of images"
        value={String(value.count)}
        disabled={disabled}
        hint={value.count > 1 ? `Uses ${value.count} image tokens, one per image.` : undefined}
        onChange={(count) => set({ count: Number(count) })}
      >
        {IMAGE_COUNTS.map((count) => {
          const included = count <= maxImages;
          const unlockedBy = included
            ? undefined
            : planUnlocking((p) => DEFAULT_PLAN_RULES[p].limits.maxImagesPerRequest >= count);
          return (
            <option key={count} value={count} disabled={!included}>
              {lockedLabel(String(count), unlockedBy)}
            </option>
          );
        })}
      </SelectField>
      <SelectField
        label="Style"
        value={value.stylePreset}
        disabled={disabled || !rules.stylePreset}
        hint={rules.stylePreset ? undefined : `${rules.title} chooses its own style.`}
        onChange={(stylePreset) => set({ stylePreset })}
      >
        <option value="">Default</option>
        {STABILITY_STYLE_PRESETS.map((preset) => (
          <option key={preset} value={preset}>
            {presetName(preset)}
          </option>
        ))}
      </SelectField>
      <div>
        <label htmlFor={ids.negative} className="field-label">
          Leave out
        </label>
        <input
          id={ids.negative}
          className="field"
          placeholder={rules.negativePrompt ? 'e.g. blurry, extra fingers' : `${rules.title} takes no negative prompt`}
          disabled={disabled || !rules.negativePrompt}
          value={value.negativePrompt}
          onChange={(event) => set({ negativePrompt: event.target.value })}
        />
      </div>
      <div>
        <label htmlFor={ids.seed} className="field-label">
          Seed
        </label>
        <input
          id={ids.seed}
          className="field"
          inputMode="numeric"
          placeholder="Random"
          disabled={disabled}
          value={value.seed}
          aria-describedby={`${ids.seed}-hint`}
          onChange={(event) => set({ seed: seedDigits(event.target.value) })}
        />
        <p id={`${ids.seed}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          The same seed and prompt make the same picture again.
        </p>
      </div>
    </PanelSettings>
  );
}

function presetName(preset: StylePreset): string {
  const words = preset.replace(/-/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** Digits only, and never above the largest seed the providers take. */
function seedDigits(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 10);
  return digits === '' ? '' : String(Math.min(Number(digits), MAX_IMAGE_SEED));
}
