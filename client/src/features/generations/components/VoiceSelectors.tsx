import {
  defaultVoiceFor,
  LANGUAGE_GROUPS,
  VOICE_GENDERS,
  VOICES,
  type LanguageCode,
  type VoiceGender,
  type VoiceId,
} from '@mediagen/shared';
import { useId } from 'react';
import { LANGUAGE_HINT, capitalize } from '../speech-texts';

/** Spec §3: the speech customization, all empty until chosen. */
export interface VoiceCustomization {
  language: LanguageCode | '';
  gender: VoiceGender | '';
  voice: VoiceId | '';
}

export const EMPTY_CUSTOMIZATION: VoiceCustomization = { language: '', gender: '', voice: '' };

interface VoiceSelectorsProps {
  value: VoiceCustomization;
  disabled: boolean;
  onChange: (value: VoiceCustomization) => void;
  /** The voice the speech model in use reads each choice with, once known. */
  readBy?: Readonly<Record<VoiceId, string>> | null | undefined;
}

const GENDER_LABELS: Record<VoiceGender, string> = { female: 'Female', male: 'Male' };

export function VoiceSelectors({ value, disabled, onChange, readBy }: VoiceSelectorsProps) {
  const languageId = useId();
  const languageHintId = useId();
  const genderId = useId();
  const voiceId = useId();
  const voiceHintId = useId();
  const readWith = value.voice === '' ? undefined : readBy?.[value.voice];
  const substituted = readWith !== undefined && readWith !== value.voice;

  function changeGender(gender: VoiceGender | '') {
    // Spec §4: a new gender starts from that gender's first voice.
    onChange({ ...value, gender, voice: gender === '' ? '' : defaultVoiceFor(gender) });
  }

  return (
    <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-1">
      <div>
        <label htmlFor={languageId} className="field-label">
          Language
        </label>
        <select
          id={languageId}
          className="field"
          aria-describedby={languageHintId}
          disabled={disabled}
          value={value.language}
          onChange={(event) => onChange({ ...value, language: event.target.value as LanguageCode | '' })}
        >
          <option value="">Select Language</option>
          {LANGUAGE_GROUPS.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.languages.map((language) => (
                <option key={language.code} value={language.code}>
                  {language.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <p id={languageHintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {LANGUAGE_HINT}
        </p>
      </div>
      <div>
        <label htmlFor={genderId} className="field-label">
          Gender
        </label>
        <select
          id={genderId}
          className="field"
          disabled={disabled}
          value={value.gender}
          onChange={(event) => changeGender(event.target.value as VoiceGender | '')}
        >
          <option value="">Select Gender</option>
          {VOICE_GENDERS.map((gender) => (
            <option key={gender} value={gender}>
              {GENDER_LABELS[gender]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={voiceId} className="field-label">
          Voice
        </label>
        <select
          id={voiceId}
          className="field"
          aria-describedby={substituted ? voiceHintId : undefined}
          disabled={disabled || value.gender === ''}
          value={value.voice}
          onChange={(event) => onChange({ ...value, voice: event.target.value as VoiceId | '' })}
        >
          <option value="">Select Voice</option>
          {value.gender !== '' &&
            VOICES[value.gender].map((voice) => (
              <option key={voice.id} value={voice.id}>
                {capitalize(voice.id)} ({voice.description})
              </option>
            ))}
        </select>
        {substituted && (
          <p id={voiceHintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Read by {capitalize(readWith)}, the nearest voice the speech model has.
          </p>
        )}
      </div>
    </div>
  );
}
