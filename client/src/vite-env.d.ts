/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_FIREBASE_API_KEY?: string;
  readonly VITE_FIREBASE_AUTH_DOMAIN?: string;
  readonly VITE_FIREBASE_PROJECT_ID?: string;
  readonly VITE_FIREBASE_STORAGE_BUCKET?: string;
  readonly VITE_FIREBASE_MESSAGING_SENDER_ID?: string;
  readonly VITE_FIREBASE_APP_ID?: string;
  /** host:port of the Firebase Auth emulator, e.g. 127.0.0.1:9099; unset in production. */
  readonly VITE_FIREBASE_AUTH_EMULATOR_HOST?: string;
  /** Origin of the API and its socket; defaults to the page's own origin. */
  readonly VITE_API_URL?: string;
  /** Spec §7: where to sync the ID token (same origin); token sync is off when unset. */
  readonly VITE_TOKEN_SYNC_URL?: string;
}
