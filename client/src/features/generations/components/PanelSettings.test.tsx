import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PanelSettings } from './PanelSettings';

describe('panel settings', () => {
  it('build their fields only when first opened, and keep them, hidden, once closed', async () => {
    render(
      <PanelSettings label="Image settings" summary="Stable Image Core · 1:1">
        <input aria-label="Seed" />
      </PanelSettings>,
    );
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: /Image settings/ });
    const region = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    // Closed, the fields are not built at all: nothing of them is made on the dashboard's first paint.
    expect(region.hidden).toBe(true);
    expect(region.childElementCount).toBe(0);

    await user.click(toggle);
    await user.type(screen.getByRole('textbox', { name: 'Seed' }), '42');
    await user.click(toggle);
    expect(region.hidden).toBe(true);
    await user.click(toggle);
    // The same field, not a new one: what was typed is still there.
    expect(screen.getByRole('textbox', { name: 'Seed' })).toHaveProperty('value', '42');
  });
});
