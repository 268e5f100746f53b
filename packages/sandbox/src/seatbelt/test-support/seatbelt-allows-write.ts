import { defaultDeviceFiles } from '../../policy/default-protected-paths.js';
import type { SeatbeltEvaluator } from '../seatbelt-evaluator.js';

/**
 * What the fence's "may write P" means to Seatbelt: every write operation on P — except on the
 * device files of the layout, where a process may only write data to a character device (issue
 * 19): `echo x > /dev/null`, never `rm /dev/null` or `chmod`.
 */
export function seatbeltAllowsWrite(evaluator: SeatbeltEvaluator, path: string): boolean {
  if (defaultDeviceFiles.includes(path)) {
    return evaluator.decide('file-write-data', path, { vnodeType: 'CHARACTER-DEVICE' }) === 'allow';
  }
  return evaluator.decide('file-write*', path) === 'allow';
}
