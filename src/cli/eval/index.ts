// The `massgen eval` commands, loaded by main.ts only when one runs: the report renderer and the eval loop need not
// slow down `massgen run`'s start-up.

import type { CliIO } from '../run-command';
import type { EvalCliCommand } from './args';
import { evalCommand } from './command';
import { evalMergeCommand } from './merge';

export function evalMain(cmd: EvalCliCommand, io: CliIO): Promise<number> | number {
  return cmd.command === 'eval' ? evalCommand(cmd, io) : evalMergeCommand(cmd, io);
}
