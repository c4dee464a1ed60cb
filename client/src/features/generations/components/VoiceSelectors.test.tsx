import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CUSTOMIZATION, VoiceSelectors, type VoiceCustomization } from './VoiceSelectors';

const REALTIME_VOICES = {
  nova: 'coral',
  shimmer: 'shimmer',
  alloy: 'alloy',
  echo: 'echo',
  onyx: 'cedar',
  fable: 'ballad',
};

function Harness({ readBy }: { readBy?: typeof REALTIME_VOICES }) {
  const [value, setValue] = useState<VoiceCustomization>(EMPTY_CUSTOMIZATION);
  return <VoiceSelectors value={value} disabled={false} onChange={setValue} readBy={readBy} />;
}

const select = (name: string) => screen.getByRole<HTMLSelectElement>('combobox', { name });
/** What a screen reader reads after the control's name: the texts its aria-describedby points at. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();

describe('voice selectors', () => {
  it('start empty, with the voice disabled until a gender is chosen', () => {
    render(<Harness />);
    expect(select('Language').value).toBe('');
    expect(select('Gender').value).toBe('');
    expect(select('Voice').disabled).toBe(true);
    expect(select('Voice').selectedOptions[0]?.textContent).toBe('Select Voice');
  });

  it("offer the languages in the spec's two groups after 'Select Language'", () => {
    render(<Harness />);
    expect(select('Language').options[0]?.textContent).toBe('Select Language');
    const groups = [...select('Language').querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(['Regional Languages', 'International Languages']);
    expect(screen.getByRole('option', { name: 'Chinese (Mandarin)' })).toHaveProperty('value', 'zh-CN');
  });

  it("open 'Select Gender' and pick that gender's first voice when one is chosen", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(select('Gender').options[0]?.textContent).toBe('Select Gender');
    await user.selectOptions(select('Gender'), 'female');
    expect(select('Voice').disabled).toBe(false);
    expect(select('Voice').value).toBe('nova');
    expect([...select('Voice').options].map((option) => option.value)).toEqual(['', 'nova', 'shimmer', 'alloy']);
  });

  it('reset the voice to the first voice of a newly chosen gender', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(select('Gender'), 'female');
    await user.selectOptions(select('Voice'), 'alloy');
    await user.selectOptions(select('Gender'), 'male');
    expect(select('Voice').value).toBe('echo');
    await user.selectOptions(select('Gender'), '');
    expect(select('Voice').value).toBe('');
    expect(select('Voice').disabled).toBe(true);
  });

  it('say which voice the speech model reads a choice with when it has not got that one', async () => {
    const user = userEvent.setup();
    render(<Harness readBy={REALTIME_VOICES} />);
    await user.selectOptions(select('Gender'), 'female');
    expect(description(select('Voice'))).toBe('Read by Coral, the nearest voice the speech model has.');
    await user.selectOptions(select('Voice'), 'shimmer');
    expect(screen.queryByText(/Read by/)).toBeNull();
    await user.selectOptions(select('Gender'), 'male');
    await user.selectOptions(select('Voice'), 'fable');
    expect(screen.getByText('Read by Ballad, the nearest voice the speech model has.')).toBeTruthy();
  });

  it('tell that text in another language is read as written, never translated', () => {
    render(<Harness />);
    expect(description(select('Language'))).toBe('Text in another language is read as written, never translated.');
  });
});
