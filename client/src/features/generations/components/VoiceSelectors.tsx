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
}

const GENDER_LABELS: Record<VoiceGender, string> = { female: 'Female', male: 'Male' };

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function VoiceSelectors({ value, disabled, onChange }: VoiceSelectorsProps) {
  const languageId = useId();
  const genderId = useId();
  const voiceId = useId();

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
      </div>
    </div>
  );
}
