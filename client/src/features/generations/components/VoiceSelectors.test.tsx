import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CUSTOMIZATION, VoiceSelectors, type VoiceCustomization } from './VoiceSelectors';

function Harness() {
  const [value, setValue] = useState<VoiceCustomization>(EMPTY_CUSTOMIZATION);
  return <VoiceSelectors value={value} disabled={false} onChange={setValue} />;
}

const select = (name: string) => screen.getByRole<HTMLSelectElement>('combobox', { name });

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
});
