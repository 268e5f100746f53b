#!/usr/bin/env node
// The main job until the CLI exists: load every built package through its published entry point and
// print what it offers, plus which kernel sandbox this machine can use for bash.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let failures = 0;

for (const group of ['packages', 'apps']) {
  const groupDirectory = join(root, group);
  if (!existsSync(groupDirectory)) continue;
  for (const name of readdirSync(groupDirectory).sort()) {
    const directory = join(groupDirectory, name);
    const manifestPath = join(directory, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const entry = manifest.exports?.['.']?.default ?? manifest.main;
    if (!entry) continue;
    try {
      const module = await import(pathToFileURL(join(directory, entry)).href);
      const names = Object.keys(module).sort();
      console.log(`${manifest.name}@${manifest.version}: ${names.length} exports`);
      console.log(`  ${names.join(', ')}`);
      if (typeof module.selectSandboxBackend === 'function') {
        const backend = module.selectSandboxBackend();
        const availability = await backend.selfCheck();
        console.log(
          `  sandbox backend on ${process.platform}: ${backend.kind} — ` +
            (availability.available ? 'available' : `unavailable: ${availability.reason}`),
        );
      }
    } catch (error) {
      failures += 1;
      console.log(`${manifest.name}: FAILED to load ${entry}: ${error instanceof Error ? error.message : error}`);
    }
  }
}
process.exit(failures === 0 ? 0 : 1);
