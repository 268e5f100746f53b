import type { CommandFinding, PathGrant } from '@openwork/sandbox';
import type { CallInspection } from '@openwork/tools-contract';

/** §6.1 `escalation` as builtins report it: canonical paths and the justification. */
export interface EscalationFact {
  readonly paths: readonly PathGrant[];
  readonly justification: string;
}

/** A fact read from an inspection: absent, present, or present but not in the expected shape. */
export type FactReading<T> = { readonly kind: 'absent' } | { readonly kind: 'present'; readonly value: T } | { readonly kind: 'malformed'; readonly problem: string };

/**
 * The `escalation` fact (§6.1, §7.5). The contract types it `unknown`; a tool that reports it in
 * another shape has a bug, and its call must not run on a guess of what it asked for.
 */
export function readEscalation(inspection: CallInspection): FactReading<EscalationFact> {
  const fact = inspection['escalation'];
  if (fact === undefined) return { kind: 'absent' };
  if (typeof fact !== 'object' || fact === null) return { kind: 'malformed', problem: 'escalation is not an object' };
  const { paths, justification } = fact as { paths?: unknown; justification?: unknown };
  if (!Array.isArray(paths) || paths.length === 0) return { kind: 'malformed', problem: 'escalation.paths is not a non-empty list' };
  if (typeof justification !== 'string' || justification.trim() === '') return { kind: 'malformed', problem: 'escalation.justification is empty' };
  const grants: PathGrant[] = [];
  for (const entry of paths as unknown[]) {
    const { path, access, scope } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof path !== 'string' || !path.startsWith('/') || path.includes('\0')) return { kind: 'malformed', problem: 'an escalation path is not absolute' };
    if (access !== 'read' && access !== 'write') return { kind: 'malformed', problem: 'an escalation access is neither read nor write' };
    if (scope !== 'exact' && scope !== 'subtree') return { kind: 'malformed', problem: 'an escalation scope is neither exact nor subtree' };
    grants.push(Object.freeze({ path, access, scope }));
  }
  return { kind: 'present', value: Object.freeze({ paths: Object.freeze(grants), justification }) };
}

/** The `danger` fact: the findings of `analyzeCommand` (architecture §3.6). */
export interface DangerFact {
  readonly findings: readonly CommandFinding[];
}

/**
 * The `danger` fact (§6.1). A `danger` that is present but not the analysis' shape still asks
 * the user: when in doubt about a command, a person decides.
 */
export function readDanger(inspection: CallInspection): FactReading<DangerFact> {
  const fact = inspection['danger'];
  if (fact === undefined || fact === null) return { kind: 'absent' };
  // Anything but an object with a list of findings (a string, `true`, …) has no `findings`.
  const findings = (fact as { findings?: unknown }).findings;
  if (!Array.isArray(findings)) return { kind: 'present', value: { findings: [unknownFinding(inspection)] } };
  if ((fact as { dangerous?: unknown }).dangerous === false && findings.length === 0) return { kind: 'absent' };
  const checked = findings.map((finding: unknown): CommandFinding => {
    const { rule, command, reason } = (typeof finding === 'object' && finding !== null ? finding : {}) as Record<string, unknown>;
    if (typeof rule === 'string' && typeof command === 'string' && typeof reason === 'string') {
      return Object.freeze({ rule, command, reason }) as CommandFinding;
    }
    return unknownFinding(inspection);
  });
  return { kind: 'present', value: Object.freeze({ findings: Object.freeze(checked.length === 0 ? [unknownFinding(inspection)] : checked) }) };
}

function unknownFinding(inspection: CallInspection): CommandFinding {
  return Object.freeze({
    rule: 'unparseable',
    command: inspection.kind === 'runs' ? inspection.command : '',
    reason: 'The tool reported this command as dangerous without saying why.',
  });
}
