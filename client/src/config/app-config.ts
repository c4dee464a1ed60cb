import { configProblemMessage, findConfigProblems, type FirebaseConfigKey } from '@mediagen/shared';

/** The Vite variable that carries each of the six identity configuration values. */
export const FIREBASE_ENV_NAMES = {
  apiKey: 'VITE_FIREBASE_API_KEY',
  authDomain: 'VITE_FIREBASE_AUTH_DOMAIN',
  projectId: 'VITE_FIREBASE_PROJECT_ID',
  storageBucket: 'VITE_FIREBASE_STORAGE_BUCKET',
  messagingSenderId: 'VITE_FIREBASE_MESSAGING_SENDER_ID',
  appId: 'VITE_FIREBASE_APP_ID',
} as const satisfies Record<FirebaseConfigKey, string>;

export interface AppConfig {
  firebase: Record<FirebaseConfigKey, string>;
  authEmulatorHost: string | undefined;
  apiUrl: string;
}

export type ConfigCheck = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** Spec §5: the app refuses to start without the six identity values; every problem is reported at once. */
export function checkAppConfig(env: Env, pageOrigin: string): ConfigCheck {
  const problems = findConfigProblems(env, Object.values(FIREBASE_ENV_NAMES));
  if (problems.length > 0) return { ok: false, problems: problems.map(configProblemMessage) };
  const firebase = Object.fromEntries(
    Object.entries(FIREBASE_ENV_NAMES).map(([key, name]) => [key, env[name] ?? '']),
  ) as AppConfig['firebase'];
  return {
    ok: true,
    config: {
      firebase,
      authEmulatorHost: env.VITE_FIREBASE_AUTH_EMULATOR_HOST?.trim() || undefined,
      apiUrl: (env.VITE_API_URL?.trim() || pageOrigin).replace(/\/+$/, ''),
    },
  };
}

export const configCheck = checkAppConfig(import.meta.env, window.location.origin);

/** For modules that only load once the app has started, which happens only with a valid config. */
export function requireAppConfig(): AppConfig {
  if (!configCheck.ok) throw new Error(configCheck.problems.join('\n'));
  return configCheck.config;
}
