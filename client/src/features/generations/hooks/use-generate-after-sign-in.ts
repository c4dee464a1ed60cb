import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A signed-out creator who clicks Generate is asked to sign in first; once they have, what they asked for
 * goes ahead without a second click. The returned function is what the sign-in dialog calls on success.
 * It only marks the wish: the generation runs from the panel's next render, signed in (with the
 * creator's token and balance), never from the signed-out render that opened the dialog.
 */
export function useGenerateAfterSignIn(signedIn: boolean, generate: () => void): () => void {
  const [waiting, setWaiting] = useState(false);
  const generateRef = useRef(generate);
  generateRef.current = generate;

  useEffect(() => {
    if (!waiting || !signedIn) return;
    setWaiting(false);
    generateRef.current();
  }, [waiting, signedIn]);

  return useCallback(() => setWaiting(true), []);
}
