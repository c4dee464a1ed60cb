import { describe, expect, it } from 'vitest';
import { appOrigin } from '../src/http/app-origin';

/** Where Stripe's checkout and portal send the browser back: the app, on the origin the user is on. */
const CLIENT_ORIGINS = ['http://127.0.0.1:5173', 'http://localhost:5173'];
const API = 'http://127.0.0.1:3000';

describe("the app's origin for links back into it", () => {
  it('is the origin the browser came from when CORS_ORIGIN lists it', () => {
    expect(appOrigin('http://localhost:5173', CLIENT_ORIGINS, API)).toBe('http://localhost:5173');
  });

  it('is never a site CORS_ORIGIN does not list: the first listed instead', () => {
    expect(appOrigin('https://evil.example', CLIENT_ORIGINS, API)).toBe('http://127.0.0.1:5173');
    expect(appOrigin(undefined, CLIENT_ORIGINS, API)).toBe('http://127.0.0.1:5173');
  });

  it("is the API's own origin when no client origin is listed (the app is served with it)", () => {
    expect(appOrigin('https://evil.example', [], API)).toBe(API);
  });
});
