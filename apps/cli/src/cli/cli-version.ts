import { readFileSync } from 'node:fs';

interface CliManifest {
  readonly version: string;
  readonly engines: { readonly node: string };
}

let manifest: CliManifest | undefined;

/** This package's package.json (the version, and `engines.node`: the Node releases it runs on). */
export function cliManifest(): CliManifest {
  manifest ??= JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as CliManifest;
  return manifest;
}

/** The version in this package's package.json. */
export function cliVersion(): string {
  return cliManifest().version;
}
