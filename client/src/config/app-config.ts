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
  /** Spec §7's optional token sync: an absolute URL on the page's own origin, or undefined when off. */
  tokenSyncUrl: string | undefined;
}

export type ConfigCheck = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** Spec §5: the app refuses to start without the six identity values; every problem is reported at once. */
export function checkAppConfig(env: Env, pageOrigin: string): ConfigCheck {
  const problems = findConfigProblems(env, Object.values(FIREBASE_ENV_NAMES)).map(configProblemMessage);
  const tokenSyncUrl = readTokenSyncUrl(env.VITE_TOKEN_SYNC_URL, pageOrigin);
  if (tokenSyncUrl === null) {
    problems.push(`VITE_TOKEN_SYNC_URL must be a path or URL on this site's own origin (${pageOrigin})`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const firebase = Object.fromEntries(
    Object.entries(FIREBASE_ENV_NAMES).map(([key, name]) => [key, env[name] ?? '']),
  ) as AppConfig['firebase'];
  return {
    ok: true,
    config: {
      firebase,
      authEmulatorHost: env.VITE_FIREBASE_AUTH_EMULATOR_HOST?.trim() || undefined,
      apiUrl: (env.VITE_API_URL?.trim() || pageOrigin).replace(/\/+$/, ''),
      tokenSyncUrl: tokenSyncUrl ?? undefined,
    },
  };
}

/** Undefined when unset; null when it points at another origin, where the session cookie would not be ours. */
function readTokenSyncUrl(value: string | undefined, pageOrigin: string): string | undefined | null {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim(), pageOrigin);
    return url.origin === pageOrigin ? url.toString() : null;
  } catch {
    return null;
  }
}

export const configCheck = checkAppConfig(import.meta.env, window.location.origin);

/** For modules that only load once the app has started, which happens only with a valid config. */
export function requireAppConfig(): AppConfig {
  if (!configCheck.ok) throw new Error(configCheck.problems.join('\n'));
  return configCheck.config;
}
