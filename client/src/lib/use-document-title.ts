import { useEffect } from 'react';

const PRODUCT_NAME = 'MediaGen';

/** Screen readers announce the title on navigation, so every route names itself. */
export function useDocumentTitle(pageTitle: string): void {
  useEffect(() => {
    document.title = `${pageTitle} · ${PRODUCT_NAME}`;
  }, [pageTitle]);
}
