import type { SandboxPolicy } from '@openwork/sandbox';
import type { ToolSessionContext } from '../context/tool-session-context.js';

/**
 * §7.9 "环境变量只有 §4 列出的六个（有值时），再叠加 SandboxEnvironment::bash_environment()": the
 * session's environment (for a local session PATH, HOME, SHELL, LANG, LC_ALL, TMPDIR — nothing
 * else of the host's), then what the sandbox backend adds for this policy; on a name in both, the
 * backend's value wins.
 */
export function bashEnvironment(session: ToolSessionContext, policy: SandboxPolicy): Readonly<Record<string, string>> {
  const additions = session.sandbox.commandEnvironment?.(policy) ?? {};
  return Object.freeze({ ...session.environment, ...additions });
}
