import { basename, dirname } from 'node:path';
import type { Plugin, Rollup } from 'vite';

/**
 * Pages are chunks of their own, which the router asks for only once the main chunk has run: on a slow
 * phone that is a second round trip before the page can paint. This adds to index.html a small script
 * that, before the main chunk arrives, preloads the chunk of the page being opened (and the chunks it
 * imports), so both download together.
 *
 * A page at `/name` is the module `name.tsx` in `pagesDir` (the router's lazy pages follow it); a path that
 * names no page chunk preloads nothing and loads as before.
 */
export function preloadPageChunks(pagesDir: string): Plugin {
  let base = '/';
  return {
    name: 'mediagen:preload-page-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (bundle === undefined) return [];
        const filesByPage = pageChunkFiles(bundle, pagesDir, base);
        return [
          {
            tag: 'script',
            injectTo: 'head',
            children:
              // An own-property test: a path such as /constructor must not find Object.prototype's members.
              `(function(){var pages=${JSON.stringify(filesByPage)},name=location.pathname.split('/')[1];` +
              `var files=Object.prototype.hasOwnProperty.call(pages,name)?pages[name]:[];` +
              `files.forEach(function(href){var link=document.createElement('link');link.rel='modulepreload';` +
              `link.crossOrigin='';link.href=href;document.head.appendChild(link);});})();`,
          },
        ];
      },
    },
  };
}

/** Each page chunk's file and those of the chunks it imports statically, by page name. */
function pageChunkFiles(bundle: Rollup.OutputBundle, pagesDir: string, base: string): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const filesByPage: Record<string, string[]> = {};
  for (const chunk of chunks) {
    // By the modules it holds, not its facade: a page chunk that also carries modules other chunks import
    // has none.
    const module = chunk.moduleIds.find((id) => dirname(id) === pagesDir.replace(/\/$/, ''));
    if (!chunk.isDynamicEntry || module === undefined) continue;
    const files = new Set<string>();
    const visit = (file: string) => {
      const imported = byFile.get(file);
      // The entry chunk is on its way already.
      if (files.has(file) || imported === undefined || imported.isEntry) return;
      files.add(file);
      imported.imports.forEach(visit);
    };
    visit(chunk.fileName);
    filesByPage[basename(module).replace(/\.[jt]sx?$/, '')] = [...files].map((file) => `${base}${file}`);
  }
  return filesByPage;
}
