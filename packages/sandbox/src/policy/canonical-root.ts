import * as path from 'node:path';
import { canonicalizePathSync } from './canonicalize-path.js';
import { SandboxConfigurationError } from './sandbox-error.js';

export function requireAbsolute(value: string, what: string): string {
  if (!value.startsWith('/') || value.includes('\0')) {
    throw new SandboxConfigurationError(`${what} must be an absolute path without NUL bytes, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Canonical form of a configured root (may not exist yet). A dangling link in a root is a configuration error. */
export function canonicalRoot(value: string, what: string): string {
  requireAbsolute(value, what);
  const resolution = canonicalizePathSync(value, { cwd: '/', intent: 'may-create' });
  if (!resolution.ok) throw new SandboxConfigurationError(`${what}: ${resolution.message}`);
  return resolution.path;
}

/**
 * Both places a protected name lives: where the node itself sits (canonical parent + name — a
 * symbolic link there can be replaced) and what it resolves to (the file that would be changed).
 */
export function protectedLocations(value: string, what: string): string[] {
  requireAbsolute(value, what);
  const parent = path.posix.dirname(value);
  const name = path.posix.basename(value);
  const locations = new Set<string>();
  const parentResolution = canonicalizePathSync(parent, { cwd: '/', intent: 'may-create' });
  if (parentResolution.ok) {
    locations.add(parentResolution.path === '/' ? `/${name}` : `${parentResolution.path}/${name}`);
  }
  const target = canonicalizePathSync(value, { cwd: '/', intent: 'may-create' });
  if (target.ok) locations.add(target.path);
  if (locations.size === 0) locations.add(path.posix.normalize(value));
  return [...locations];
}

