/**
 * The app's origin a request came from, for links that bring the browser back into the app (Stripe's
 * return URLs). The client is served apart from the API (VITE_API_URL), so PUBLIC_URL, the API's own
 * origin, is not it. The browser's Origin is, when CORS_ORIGIN lists it (so a link never leads to a site
 * that is not ours, and a user on localhost comes back to localhost, where their session is); otherwise
 * the first client origin listed, or `apiOrigin` when none is (the app is then served with the API).
 */
export function appOrigin(
  requestOrigin: string | undefined,
  clientOrigins: readonly string[],
  apiOrigin: string,
): string {
  if (requestOrigin !== undefined && clientOrigins.includes(requestOrigin)) return requestOrigin;
  return clientOrigins[0] ?? apiOrigin;
}
