import * as path from 'node:path';
import { PathPatternMarker } from './path-pattern-marker.js';

/** What a destructive command would hit, judged from a resolved word's pattern. */
export type PathTargetJudgement =
  | { readonly kind: 'critical'; readonly description: string }
  /** Entirely dynamic (`"$X"`, `$X/`, `$(cmd)/*`): an empty value would make it `/` or the cwd. */
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ordinary' };

/** Where the command runs; see `CommandAnalysisContext`. */
export interface PathTargetContext {
  readonly homeDirectory: string | undefined;
  readonly workspaceRoots: readonly string[];
  /**
   * The directory relative targets are resolved against, as a pattern: an absolute path, or one
   * that starts with a `PathPatternMarker` (`workingDirectory`: where bash started, not known;
   * `home`; `unknown`: after `cd "$X"`). Follows `cd` within the command line.
   */
  readonly workingDirectory: string | undefined;
}

// System folders whose subfolders hold what the machine runs on: `/usr/lib`, `/etc/ssl`, `/var/lib`.
const systemRoots = new Set(['/usr', '/etc', '/var', '/boot', '/lib', '/lib32', '/lib64', '/libx32', '/bin', '/sbin', '/opt', '/srv', '/sys', '/proc', '/dev', '/snap']);
// …and the one level below these, which is still shared state (`/var/lib/docker`, `/usr/lib/python3`).
const deepSystemRoots = new Set(['/var/lib', '/usr/lib', '/usr/local', '/usr/share', '/usr/lib64']);
// Folders in a home directory that hold the user's own documents or keys.
const personalFolders = new Set([
  'Documents', 'Desktop', 'Downloads', 'Pictures', 'Music', 'Videos', 'Movies', 'Library', 'Dropbox',
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.config', '.local', '.password-store', '.mozilla', '.thunderbird',
]);

const { anyText, oneCharacter, home, workingDirectory, unknown } = PathPatternMarker;
const globMarkers = new RegExp(`[${anyText}${oneCharacter}${unknown}]`);
const onlyGlobAndDots = new RegExp(`^[/.${anyText}${oneCharacter}${unknown}]*$`);
const broadComponent = new RegExp(`^\\.?[${anyText}${oneCharacter}${unknown}]*[${anyText}${unknown}][${anyText}${oneCharacter}${unknown}]*$`);

/**
 * Judges the target of a recursive delete, a move or a permission change (§3.6). Critical: `/`, a
 * top-level directory, a system directory one or two levels down (`/usr/lib`, `/var/lib/docker`), a
 * home directory and the personal folders in it (`~/Documents`, `~/.ssh`), a workspace root, the
 * working directory when no context says where it is (bash starts in the workspace root, §7.9), an
 * ancestor of any of those, or a broad glob (`*`, `.*`, an unknown part) directly inside one.
 * Unknown parts are treated as globs that may be empty.
 */
export function judgePathTarget(target: string, context: PathTargetContext): PathTargetJudgement {
  // A relative target is relative to where the command is at this point (`cd` included).
  const relative = !target.startsWith('/') && !target.startsWith(home) && !target.startsWith(unknown) && !target.startsWith(workingDirectory);
  const current = context.workingDirectory ?? context.workspaceRoots[0] ?? workingDirectory;
  const pattern = relative ? `${current}/${target}` : target;
  if (pattern.startsWith(unknown)) {
    return onlyGlobAndDots.test(pattern) ? { kind: 'unknown' } : { kind: 'ordinary' };
  }
  let base: 'absolute' | 'home' | 'working-directory';
  let rest: string;
  if (pattern.startsWith('/')) {
    base = 'absolute';
    rest = pattern;
  } else if (pattern.startsWith(home)) {
    base = 'home';
    rest = pattern.slice(1);
  } else {
    base = 'working-directory';
    rest = pattern.slice(1);
  }

  // Textual normalisation up to the first glob; `..` above an unknown base makes an ancestor.
  const components: string[] = [];
  let levelsAboveBase = 0;
  const raw = rest.split('/').filter((component) => component !== '' && component !== '.');
  let index = 0;
  for (; index < raw.length; index++) {
    const component = raw[index] ?? '';
    if (globMarkers.test(component)) break;
    if (component === '..') {
      if (components.length > 0) components.pop();
      else if (base !== 'absolute') levelsAboveBase++;
    } else {
      components.push(component);
    }
  }
  const globComponent = raw[index];
  const afterGlob = raw.slice(index + 1);
  const broad = globComponent !== undefined && broadComponent.test(globComponent) && afterGlob.every((c) => onlyGlobAndDots.test(c));

  if (base !== 'absolute') {
    const baseName = base === 'home' ? 'your home directory' : 'the working directory (the workspace root)';
    if (components.length > 0) {
      if (base === 'home' && levelsAboveBase === 0 && components.length === 1 && globComponent === undefined && personalFolders.has(components[0] as string)) {
        return { kind: 'critical', description: `~/${components[0] as string} in your home directory` };
      }
      return { kind: 'ordinary' };
    }
    const where = levelsAboveBase > 0 ? `a directory above ${baseName}` : baseName;
    if (globComponent === undefined) return { kind: 'critical', description: where };
    return broad ? { kind: 'critical', description: `everything in ${where}` } : { kind: 'ordinary' };
  }

  const directory = `/${components.join('/')}`;
  const critical = describeCriticalDirectory(directory, context);
  if (globComponent === undefined) {
    return critical === undefined ? { kind: 'ordinary' } : { kind: 'critical', description: critical };
  }
  if (directory === '/') return { kind: 'critical', description: 'top-level directories matched by a glob at the filesystem root' };
  if (broad && critical !== undefined) return { kind: 'critical', description: `everything in ${critical}` };
  // A glob that can match the next step towards a home or workspace root deletes that root.
  const matcher = globRegExp(globComponent);
  for (const protectedPath of protectedPaths(context)) {
    const relative = path.posix.relative(directory, protectedPath);
    if (relative === '' || relative.startsWith('..')) continue;
    const next = relative.split('/')[0] ?? '';
    if (matcher.test(next)) {
      return { kind: 'critical', description: `${path.posix.join(directory, next)}, which contains ${protectedPath}` };
    }
  }
  return { kind: 'ordinary' };
}

function protectedPaths(context: PathTargetContext): string[] {
  const paths = context.workspaceRoots.map((root) => path.posix.resolve(root));
  if (context.homeDirectory !== undefined) paths.push(path.posix.resolve(context.homeDirectory));
  return paths;
}

function describeCriticalDirectory(directory: string, context: PathTargetContext): string | undefined {
  if (directory === '/') return 'the filesystem root /';
  const homeDirectory = context.homeDirectory === undefined ? undefined : path.posix.resolve(context.homeDirectory);
  if (directory === homeDirectory) return `your home directory ${directory}`;
  for (const root of context.workspaceRoots.map((root) => path.posix.resolve(root))) {
    if (directory === root) return `the workspace root ${directory}`;
    if (root.startsWith(`${directory}/`)) return `${directory}, which contains the workspace ${root}`;
  }
  if (homeDirectory?.startsWith(`${directory}/`)) return `${directory}, which contains your home directory`;
  if (/^\/[^/]+$/.test(directory)) return `the top-level directory ${directory}`;
  if (/^\/(?:home|Users)\/[^/]+$/.test(directory)) return `the home directory ${directory}`;
  const parent = path.posix.dirname(directory);
  if (systemRoots.has(parent) || deepSystemRoots.has(parent)) return `the system directory ${directory}`;
  if (homeDirectory !== undefined && parent === homeDirectory && personalFolders.has(path.posix.basename(directory))) {
    return `${directory} in your home directory`;
  }
  return undefined;
}

function globRegExp(component: string): RegExp {
  let source = '';
  for (const character of component) {
    if (character === anyText || character === unknown) source += '.*';
    else if (character === oneCharacter) source += '.';
    else source += character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}
