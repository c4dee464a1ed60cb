import { describe, expect, it } from 'vitest';
import { checkAppConfig } from './app-config';

const VALID = {
  VITE_FIREBASE_API_KEY: 'demo-api-key',
  VITE_FIREBASE_AUTH_DOMAIN: 'demo-mediagen.firebaseapp.com',
  VITE_FIREBASE_PROJECT_ID: 'demo-mediagen',
  VITE_FIREBASE_STORAGE_BUCKET: 'demo-mediagen.appspot.com',
  VITE_FIREBASE_MESSAGING_SENDER_ID: '000000000000',
  VITE_FIREBASE_APP_ID: '1:000000000000:web:0000',
};

describe('checkAppConfig', () => {
  it('accepts the six values and defaults the API to the page origin', () => {
    const check = checkAppConfig(VALID, 'https://app.example');
    expect(check).toEqual({
      ok: true,
      config: {
        firebase: {
          apiKey: 'demo-api-key',
          authDomain: 'demo-mediagen.firebaseapp.com',
          projectId: 'demo-mediagen',
          storageBucket: 'demo-mediagen.appspot.com',
          messagingSenderId: '000000000000',
          appId: '1:000000000000:web:0000',
        },
        authEmulatorHost: undefined,
        apiUrl: 'https://app.example',
        tokenSyncUrl: undefined,
      },
    });
  });

  it('takes a token sync URL on the page origin, as a path or in full, and refuses one elsewhere', () => {
    const sync = (value: string) => checkAppConfig({ ...VALID, VITE_TOKEN_SYNC_URL: value }, 'https://app.example');
    expect(sync('/api/session')).toMatchObject({
      ok: true,
      config: { tokenSyncUrl: 'https://app.example/api/session' },
    });
    expect(sync('https://app.example/sync')).toMatchObject({ config: { tokenSyncUrl: 'https://app.example/sync' } });
    expect(sync('https://api.example/api/session')).toEqual({
      ok: false,
      problems: ["VITE_TOKEN_SYNC_URL must be a path or URL on this site's own origin (https://app.example)"],
    });
  });

  it('reads the emulator host and an API URL without its trailing slash', () => {
    const check = checkAppConfig(
      { ...VALID, VITE_FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', VITE_API_URL: 'http://127.0.0.1:3000/' },
      'https://app.example',
    );
    expect(check.ok && check.config).toMatchObject({
      authEmulatorHost: '127.0.0.1:9099',
      apiUrl: 'http://127.0.0.1:3000',
    });
  });

  it("reports every missing, empty, 'your-' or 'undefined' value with the spec's messages", () => {
    const check = checkAppConfig(
      {
        ...VALID,
        VITE_FIREBASE_API_KEY: undefined,
        VITE_FIREBASE_AUTH_DOMAIN: '',
        VITE_FIREBASE_PROJECT_ID: 'your-project-id',
        VITE_FIREBASE_APP_ID: 'undefined',
      },
      'https://app.example',
    );
    expect(check).toEqual({
      ok: false,
      problems: [
        'Missing required environment variable: VITE_FIREBASE_API_KEY',
        'Missing required environment variable: VITE_FIREBASE_AUTH_DOMAIN',
        'Invalid Firebase configuration: VITE_FIREBASE_PROJECT_ID has an invalid value',
        'Invalid Firebase configuration: VITE_FIREBASE_APP_ID has an invalid value',
      ],
    });
  });
});
