import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

function wipe(what: string): RuleMatch[] {
  return [{ rule: 'infrastructure-wipe', reason: `${what} This cannot be undone from here; ask the user to run it themselves, or target the one resource you mean.` }];
}

/** Short option letters (`-af` → `af`) and long options, up to `--`. */
function optionsOf(values: readonly (string | undefined)[]): { letters: string; long: Set<string> } {
  const until = values.includes('--') ? values.slice(0, values.indexOf('--')) : values;
  const letters = until.filter((text): text is string => text !== undefined && /^-[A-Za-z]+$/.test(text)).map((text) => text.slice(1)).join('');
  const long = new Set(until.filter((text): text is string => text !== undefined && text.startsWith('--')).map((text) => text.split('=')[0] as string));
  return { letters, long };
}

function operandsOf(values: readonly (string | undefined)[]): string[] {
  return values.filter((text): text is string => text !== undefined && !text.startsWith('-'));
}

/**
 * The usual one-line wipes of containers, infrastructure and cloud storage (§3.6): `docker system
 * prune -a --volumes`, `terraform destroy -auto-approve`, `kubectl delete ns --all`, `aws s3 rm
 * --recursive` and their close relatives. Interactive forms that would stop and ask are not flagged.
 */
export function checkInfrastructureCommand(program: string, argumentsAfterProgram: readonly ResolvedWord[]): RuleMatch[] {
  const values = argumentsAfterProgram.map((word) => word.value);
  const { letters, long } = optionsOf(values);
  const operands = operandsOf(values);
  switch (program) {
    case 'docker':
    case 'podman': {
      const forced = /f/.test(letters) || long.has('--force');
      const [group, action] = operands;
      if (group === 'system' && action === 'prune' && forced && (/a/.test(letters) || long.has('--all') || long.has('--volumes'))) {
        return wipe(`${program} system prune -a/--volumes deletes every stopped container, unused image and (with --volumes) every volume with its data.`);
      }
      if (group === 'volume' && action === 'prune' && forced) return wipe(`${program} volume prune deletes the data of every volume no container uses right now.`);
      return [];
    }
    case 'terraform':
    case 'tofu':
    case 'terragrunt': {
      const approved = long.has('-auto-approve') || values.some((text) => text === '-auto-approve' || text === '--auto-approve');
      const destroys = operands[0] === 'destroy' || (operands[0] === 'apply' && values.includes('-destroy'));
      return destroys && approved ? wipe(`${program} destroy -auto-approve deletes every resource the configuration manages, without showing the plan first.`) : [];
    }
    case 'kubectl':
    case 'oc': {
      if (operands[0] !== 'delete') return [];
      const everything = long.has('--all') || long.has('--all-namespaces') || /A/.test(letters);
      const namespaces = ['ns', 'namespace', 'namespaces'].includes(operands[1] ?? '') || (operands[1] ?? '').split(',').some((kind) => ['ns', 'namespace', 'namespaces'].includes(kind));
      if (everything || namespaces) return wipe(`${program} delete ${namespaces ? 'of a namespace deletes everything running in it' : '--all deletes every resource of that kind'}.`);
      return [];
    }
    case 'aws': {
      const [service, action] = operands;
      if (service === 's3' && action === 'rm' && long.has('--recursive')) return wipe('aws s3 rm --recursive deletes every object under that prefix (a whole bucket for s3://bucket/).');
      if (service === 's3' && action === 'rb' && long.has('--force')) return wipe('aws s3 rb --force deletes every object in the bucket and then the bucket.');
      if (service === 's3api' && action === 'delete-bucket') return wipe('aws s3api delete-bucket deletes the bucket.');
      return [];
    }
    case 'gsutil':
      return operands[0] === 'rm' && /r/i.test(letters) ? wipe('gsutil rm -r deletes every object under that path.') : [];
    case 'gcloud':
      return operands[0] === 'storage' && operands[1] === 'rm' && (/r/.test(letters) || long.has('--recursive'))
        ? wipe('gcloud storage rm --recursive deletes every object under that path.')
        : [];
    default:
      return [];
  }
}
