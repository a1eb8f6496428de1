// The `massgen` binary: argument parsing and process wiring only; the work is in run-command.ts and mcp/.

import { errorMessage } from '../core/util/errors';
import { parseCliArgs, UsageError, USAGE } from './args';
import { EXIT, runCommand, validateCommand, type CliIO } from './run-command';

declare const __VERSION__: string | undefined;

async function main(argv: string[]): Promise<number> {
  const io: CliIO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      let count = 0;
      const onSignal = () => {
        // A second Ctrl-C while saving means "now".
        if (++count > 1) process.exit(EXIT.interrupted);
        handler();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      return () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      };
    },
  };
  try {
    const cmd = parseCliArgs(argv);
    switch (cmd.command) {
      case 'help':
        io.stdout.write(`${USAGE}\n`);
        return EXIT.ok;
      case 'version':
        io.stdout.write(`${typeof __VERSION__ === 'string' ? __VERSION__ : 'dev'}\n`);
        return EXIT.ok;
      case 'validate':
        return validateCommand(cmd.file, io);
      case 'run':
        return await runCommand(cmd, io);
      case 'mcp':
        // Loaded only here: the MCP server SDK must not slow down `massgen run`'s start-up.
        return await (await import('./mcp/server.js')).serveMcp({ approveTools: cmd.approveTools, config: cmd.config, cwd: io.cwd, env: io.env });
      case 'eval':
      case 'eval-merge':
        // Loaded only here, as the MCP server is: the eval loop and the report renderer stay out of `run`'s start-up.
        return await (await import('./eval/index.js')).evalMain(cmd, io);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`${err.message}\n\n${USAGE}\n`);
      return EXIT.config;
    }
    // Never a stack trace for the user; the message is enough, and MASSGEN_DEBUG shows the rest.
    io.stderr.write(`massgen: ${errorMessage(err)}\n`);
    if (process.env.MASSGEN_DEBUG) io.stderr.write(`${(err as Error).stack}\n`);
    return EXIT.execution;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
