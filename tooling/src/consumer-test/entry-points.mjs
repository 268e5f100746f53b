// @ts-check
// How a package can be used once installed, read from its packed package.json: imported through
// the subpaths of `exports`, or run through the commands of `bin`.

/**
 * Whether the package can be imported (an app may only ship commands, and export nothing but its
 * package.json).
 * @param {Record<string, any>} manifest
 */
export function hasLibraryEntryPoint(manifest) {
  if (manifest.exports === undefined) return manifest.main !== undefined;
  return entryPointSpecifiers(manifest).length > 0;
}

/**
 * The commands a package installs (`bin`).
 * @param {Record<string, any>} manifest
 * @returns {string[]}
 */
export function binNames(manifest) {
  if (typeof manifest.bin === 'string') return [String(manifest.name).replace(/^@[^/]+\//, '')];
  return typeof manifest.bin === 'object' && manifest.bin !== null ? Object.keys(manifest.bin) : [];
}

/**
 * `@openwork/sandbox`, `@openwork/sandbox/testing`, …: every subpath of `exports` but package.json.
 * @param {Record<string, any>} manifest
 */
export function entryPointSpecifiers(manifest) {
  const exportsField = manifest.exports;
  if (typeof exportsField === 'string' || exportsField === undefined) return [manifest.name];
  const keys = Object.keys(exportsField);
  if (!keys.every((key) => key.startsWith('.'))) return [manifest.name]; // conditions only
  return keys
    .filter((key) => key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}
