import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConfigErrorPage } from './ConfigErrorPage';

describe('configuration error page', () => {
  it('names every problem instead of leaving the page blank', () => {
    const problems = [
      'Missing required environment variable: VITE_FIREBASE_API_KEY',
      'Invalid Firebase configuration: VITE_FIREBASE_APP_ID has an invalid value',
    ];
    render(<ConfigErrorPage problems={problems} />);
    expect(screen.getByRole('heading', { name: 'The app cannot start' })).toBeDefined();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(problems);
  });
});
