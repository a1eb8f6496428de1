// Names, model-facing descriptions and argument schemas of the command tools. `execute_command` is upstream
// MassGen's name (and `timeout` its argument name, accepted as an alias); the background tools are named for what
// they do. The descriptions state what the sandbox on this machine actually does, and the limits in force.

import { z } from 'zod';
import type { ToolSpec } from '../providers/types';
import { formatBytes } from './output';
import type { CommandLimits } from './policy';
import type { SandboxInfo } from './sandbox';

export const EXECUTE_COMMAND = 'execute_command';
export const COMMAND_OUTPUT = 'command_output';
export const KILL_COMMAND = 'kill_command';

// The schemas check types only: the timeout's range is policy.ts's (`resolveTimeout`), and an unknown or missing id
// is answered with the ids that exist (background.ts). Messages leave the field's name out; the kit puts it first.
export const EXECUTE_COMMAND_ARGS = z.object({
  work_dir: z.undefined({ error: 'is not supported: commands start in your folder; use "cd <folder> && <command>"' }).optional(),
  command: z.string({ error: 'must be a string with the shell command line' }),
  background: z.boolean({ error: 'must be true or false' }).optional(),
  timeout_seconds: z.unknown().optional(),
  timeout: z.unknown().optional(),
});
export type ExecuteCommandArgs = z.output<typeof EXECUTE_COMMAND_ARGS>;

export const BACKGROUND_ID_ARGS = z.object({ id: z.unknown().optional() });

function isolation(sandbox: SandboxInfo, network: boolean): string {
  const net = network ? 'Network access is allowed.' : 'There is no network: downloads and installs from the internet fail, so use what is installed or already in your folder.';
  switch (sandbox.kind) {
    case 'bubblewrap':
      return `It runs in a sandbox: only your folder is writable, the rest of the system is read-only, and other folders (home folders, other projects, other agents' copies) are hidden. /tmp and HOME are private and emptied after every command: keep what must last in your folder. ${net}`;
    case 'sandbox-exec':
      return `It runs in a sandbox: only your folder and a private temp folder (also HOME, emptied after every command) are writable, and home folders are hidden. ${net}`;
    case 'none':
      return 'There is no sandbox on this machine: the user is asked to approve every command before it runs, so run only what the task needs. HOME and TMPDIR are a private temp folder, emptied after every command.';
  }
}

/** The three specs, in the order they are offered. */
export function commandToolSpecs(sandbox: SandboxInfo, network: boolean, limits: CommandLimits): { execute: ToolSpec; output: ToolSpec; kill: ToolSpec } {
  const cut = formatBytes(limits.maxOutputBytes);
  return {
    execute: {
      name: EXECUTE_COMMAND,
      description:
        'Run a shell command (/bin/sh -c) in your own copy of the project: your working folder, with the same files the file tools show. ' +
        `Use it to build, run and test what you write. ${isolation(sandbox, network)} ` +
        'stdin is empty (nothing can be typed in: pass --yes style flags). stdout and stderr come back together with the exit code and the duration; ' +
        `more than ${cut} of output is cut in the middle. Timeout: ${limits.defaultTimeoutSeconds} s unless timeout_seconds says otherwise (at most ${limits.maxTimeoutSeconds} s); ` +
        `a command that times out is killed with every process it started. At most ${limits.maxCommandsPerTurn} commands per turn. ` +
        `With background: true the command keeps running (servers, watchers) and you get an id: read its output with ${COMMAND_OUTPUT} and stop it with ${KILL_COMMAND}; ` +
        `at most ${limits.maxBackground} run at a time, without a timeout unless you give one, and all are stopped when the run ends.`,
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The shell command line, e.g. "npm test" or "node test.js > out.txt 2>&1; tail -n 20 out.txt".' },
          timeout_seconds: { type: 'number', description: `Seconds before the command is killed (default ${limits.defaultTimeoutSeconds}, at most ${limits.maxTimeoutSeconds}).` },
          background: { type: 'boolean', description: `true: start it and return an id at once, for ${COMMAND_OUTPUT} and ${KILL_COMMAND}.` },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    output: {
      name: COMMAND_OUTPUT,
      description: `Read what a background command printed since the last read, and whether it is still running or how it ended (exit code). More than ${cut} since the last read is cut in the middle.`,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The id execute_command returned, e.g. "bg1".' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
    kill: {
      name: KILL_COMMAND,
      description: 'Stop a background command and every process it started; returns its last output.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The id execute_command returned, e.g. "bg1".' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
  };
}
