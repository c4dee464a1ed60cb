import { lazy, useState, type ComponentType, type FunctionComponent } from 'react';

/** A page whose code is a chunk of its own, which can be loaded before the page first renders. */
export type LazyPage = FunctionComponent & {
  /** Loads the page's code; a page then rendered for the first time shows at once. */
  load(): Promise<void>;
};

/**
 * React.lazy, but a page whose code was loaded ahead (a visit that opens on it) renders straight away.
 * Through React.lazy it would suspend once even then, showing the spinner, and React holds back what
 * replaces a fallback for a few hundred milliseconds: the page would paint that much later.
 */
export function lazyPage<Name extends string>(
  loadModule: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyPage {
  let loaded: ComponentType | undefined;
  const load = async () => {
    loaded = (await loadModule())[name];
  };
  const Suspending = lazy(async () => {
    await load();
    return { default: loaded! };
  });
  function Page() {
    // Chosen once per mount: switching to the loaded component later would remount the page.
    const [Component] = useState<ComponentType>(() => loaded ?? Suspending);
    return <Component />;
  }
  return Object.assign(Page, { load });
}
