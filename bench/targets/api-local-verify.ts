/**
 * The real app with one change: ID tokens are checked in-process (claims, expiry, audience) instead of by
 * firebase-admin, which in emulator mode also asks the emulator for the account on every call. It tells
 * how much of the API's cost is that emulator round trip rather than the server's own work.
 */
import { buildApp, loadConfig } from '@mediagen/server';

const config = loadConfig(process.env);
const app = await buildApp(config, {
  identity: {
    async verify(token) {
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
        sub?: string;
        aud?: string;
        exp?: number;
        iat?: number;
        auth_time?: number;
        email?: string;
      };
      if (!claims.sub || claims.aud !== config.firebase.projectId || (claims.exp ?? 0) * 1000 < Date.now()) {
        throw new Error('invalid token');
      }
      return {
        uid: claims.sub,
        email: claims.email ?? null,
        emailVerified: false,
        authTimeSeconds: claims.auth_time ?? 0,
        tokenIssuedAtMs: (claims.iat ?? 0) * 1000,
        tokenExpiresAtMs: (claims.exp ?? 0) * 1000,
      };
    },
    async account(uid) {
      return {
        uid,
        exists: true,
        disabled: false,
        email: null,
        emailVerified: false,
        admin: false,
        validSinceMs: null,
      };
    },
    deleteAccount: async () => undefined,
    forget: () => undefined,
    close: async () => undefined,
  },
});
await app.listen({ port: config.port, host: config.host });
console.log(`listening ${config.port}`);
