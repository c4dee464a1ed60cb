/** The simulator accepts any key: it only checks that one was sent, as a client without a key would not. */
export function hasBearerToken(request: { headers: { authorization?: string } }): boolean {
  return /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
}
