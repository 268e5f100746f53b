// The search benchmark's corpus: every package folder under
// node_modules/.pnpm/*/node_modules/ of this repository, copied with links dereferenced into a
// temp tree that has no hidden parts. Nobody here wrote it, and every machine with the same lock
// file builds the same tree. Sibling entries that pnpm links in (a package's dependencies) are
// skipped: each is copied once from its own folder.
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

function isHidden(path) {
  return basename(path).startsWith('.');
}

/** The real package folders of one `.pnpm/<entry>/node_modules`, scoped names included. */
function packageFolders(modules) {
  const folders = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(modules, entry.name);
    if (entry.name.startsWith('@') && entry.isDirectory()) {
      for (const scoped of readdirSync(path, { withFileTypes: true })) {
        if (scoped.isDirectory() && !scoped.name.startsWith('.')) folders.push(join(entry.name, scoped.name));
      }
    } else if (entry.isDirectory()) {
      folders.push(entry.name);
    }
  }
  return folders;
}

/**
 * Copies the corpus from `repositoryRoot` into `target` (created). Returns the number of package
 * folders copied.
 */
export function buildSearchCorpus(repositoryRoot, target) {
  const store = join(repositoryRoot, 'node_modules', '.pnpm');
  if (!existsSync(store)) throw new Error(`no ${store}: run pnpm install first`);
  mkdirSync(target, { recursive: true });
  let copied = 0;
  for (const entry of readdirSync(store).sort()) {
    if (entry.startsWith('.') || entry === 'node_modules') continue;
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules) || !lstatSync(modules).isDirectory()) continue;
    for (const folder of packageFolders(modules)) {
      cpSync(join(modules, folder), join(target, entry, folder), {
        recursive: true,
        dereference: true,
        filter: (source) => !isHidden(source) || source === join(modules, folder),
      });
      copied += 1;
    }
  }
  return copied;
}
