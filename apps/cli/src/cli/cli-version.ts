import { readFileSync } from 'node:fs';

/** The version in this package's package.json. */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
