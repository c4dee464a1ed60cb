import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { GenerateButton } from './GenerateButton';

function renderButton(state: { signedIn: boolean; busy: boolean; blank: boolean }) {
  const onGenerate = vi.fn();
  render(
    <GenerateButton
      {...state}
      idleLabel="Generate Video"
      busyLabel="Generating..."
      signedOutLabel="Sign in to Generate"
      onGenerate={onGenerate}
    />,
  );
  return { onGenerate, button: screen.getByRole('button') };
}

describe('generate button', () => {
  it('is enabled for a signed-in user with a prompt', () => {
    const { button } = renderButton({ signedIn: true, busy: false, blank: false });
    expect(button.textContent).toBe('Generate Video');
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });

  it('is disabled for a blank prompt', () => {
    const { button } = renderButton({ signedIn: true, busy: false, blank: true });
    expect(button).toHaveProperty('disabled', true);
  });

  it("is disabled and reads 'Generating...' while busy", () => {
    const { button } = renderButton({ signedIn: true, busy: true, blank: false });
    expect(button).toHaveProperty('disabled', true);
    expect(button.textContent).toBe('Generating...');
  });

  it('is the way in when signed out: enabled, not drawn disabled, and a click asks the user to sign in', async () => {
    const { button, onGenerate } = renderButton({ signedIn: false, busy: false, blank: true });
    expect(button.textContent).toBe('Sign in to Generate');
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-disabled')).toBeNull();
    await userEvent.setup().click(button);
    expect(onGenerate).toHaveBeenCalledOnce();
  });
});
