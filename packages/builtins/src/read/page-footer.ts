import type { ReadPage } from './read-page.js';

/** §7.1: the continuation line when the page stopped before the end; none at the end of the file. */
export function pageFooter(page: ReadPage, totalLines: number): string | undefined {
  if (page.stop === undefined || page.firstLine === undefined || page.lastLine === undefined) return undefined;
  const next = page.lastLine + 1;
  if (page.stop === 'bytes') {
    return `[showing lines ${page.firstLine}-${page.lastLine} of ${totalLines}; stopped at 32 KB. Continue with offset=${next}]`;
  }
  return `[showing lines ${page.firstLine}-${page.lastLine} of ${totalLines}. Continue with offset=${next}]`;
}
