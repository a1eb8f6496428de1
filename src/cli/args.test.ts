import assert from 'node:assert/strict';
import { parseCliArgs, USAGE, UsageError } from './args';

const usageError = (re: RegExp) => (err: unknown) => err instanceof UsageError && re.test((err as Error).message);

describe('cli args: run', () => {
  it('parses every flag', () => {
    const argv = ['run', '--config', 'team.yaml', '--status-file', 's.json', '--log-dir', 'logs', '--automation', '--timeout', '90', '--estimate', '--approve-tools', '--workspace', 'repo', '--apply', '--allow-commands', '--allow-network', '--notes-from-stdin', '--continue', '.massgen/logs/run1', '--check', 'npm test', '--check=make lint', '--verification', 'gate', 'What is 2+2?'];
    assert.deepEqual(parseCliArgs(argv), {
      command: 'run',
      question: 'What is 2+2?',
      config: 'team.yaml',
      statusFile: 's.json',
      logDir: 'logs',
      automation: true,
      timeoutSeconds: 90,
      estimate: true,
      approveTools: true,
      workspace: 'repo',
      apply: true,
      allowCommands: true,
      allowNetwork: true,
      notesFromStdin: true,
      continueFrom: '.massgen/logs/run1',
      checks: ['npm test', 'make lint'],
      verification: 'gate',
    });
  });

  it('flags may follow the question and use --flag=value', () => {
    const cmd = parseCliArgs(['run', 'Explain X', '--timeout=1.5', '--config=c.yaml']);
    assert.equal(cmd.command, 'run');
    if (cmd.command !== 'run') return;
    assert.equal(cmd.question, 'Explain X');
    assert.equal(cmd.timeoutSeconds, 1.5);
    assert.equal(cmd.config, 'c.yaml');
  });

  it('-c is short for --config', () => {
    const cmd = parseCliArgs(['run', '-c', 'team.yaml', 'q']);
    assert.equal(cmd.command === 'run' && cmd.config, 'team.yaml');
  });

  it('defaults: no optional values, automation false', () => {
    assert.deepEqual(parseCliArgs(['run', 'q']), {
      command: 'run',
      question: 'q',
      config: undefined,
      statusFile: undefined,
      logDir: undefined,
      automation: false,
      timeoutSeconds: undefined,
      estimate: false,
      approveTools: false,
      workspace: undefined,
      apply: false,
      allowCommands: false,
      allowNetwork: false,
      notesFromStdin: false,
      continueFrom: undefined,
      checks: [],
      verification: undefined,
    });
  });

  it('--continue needs the LOG_DIR and still a follow-up QUESTION', () => {
    assert.throws(() => parseCliArgs(['run', '--continue']), usageError(/--continue/));
    assert.throws(() => parseCliArgs(['run', '--continue', 'logs/run1']), usageError(/needs a QUESTION/));
  });

  it('--verification takes off, inform or gate; --check needs a command', () => {
    assert.throws(() => parseCliArgs(['run', '--verification', 'strict', 'q']), usageError(/--verification must be off, inform or gate, got 'strict'/));
    assert.throws(() => parseCliArgs(['run', '--check', '  ', 'q']), usageError(/--check needs a command/));
  });

  it('--approve-tools is a switch that takes no value', () => {
    const cmd = parseCliArgs(['run', '--approve-tools', 'q']);
    assert.equal(cmd.command === 'run' && cmd.approveTools, true);
    assert.throws(() => parseCliArgs(['run', '--approve-tools=yes', 'q']), UsageError);
    assert.match(USAGE, /--approve-tools/);
  });

  it('trims the question', () => {
    const cmd = parseCliArgs(['run', '  hello world \n']);
    assert.equal(cmd.command === 'run' && cmd.question, 'hello world');
  });

  it('a question starting with a dash can follow --', () => {
    const cmd = parseCliArgs(['run', '--', '-1 times -1?']);
    assert.equal(cmd.command === 'run' && cmd.question, '-1 times -1?');
  });

  it('a missing question is a UsageError', () => {
    assert.throws(() => parseCliArgs(['run']), usageError(/needs a QUESTION/));
    assert.throws(() => parseCliArgs(['run', '--automation']), usageError(/needs a QUESTION/));
  });

  it('an empty or blank question is a UsageError', () => {
    assert.throws(() => parseCliArgs(['run', '']), usageError(/QUESTION is empty/));
    assert.throws(() => parseCliArgs(['run', '   ']), usageError(/QUESTION is empty/));
  });

  it('several positionals (an unquoted question) are a UsageError naming the count', () => {
    assert.throws(() => parseCliArgs(['run', 'what', 'is', 'this']), usageError(/takes one QUESTION; quote it \(got 3 words unquoted\?\)/));
  });

  it('an unknown flag is a UsageError', () => {
    assert.throws(() => parseCliArgs(['run', '--verbose', 'q']), UsageError);
    assert.throws(() => parseCliArgs(['run', '-x', 'q']), UsageError);
  });

  it('a string flag without a value is a UsageError', () => {
    assert.throws(() => parseCliArgs(['run', 'q', '--config']), UsageError);
  });

  it('a boolean flag given a value is a UsageError', () => {
    assert.throws(() => parseCliArgs(['run', '--automation=yes', 'q']), UsageError);
  });

  for (const bad of ['0', '-1', 'abc', '', 'Infinity', '-0.5']) {
    it(`--timeout ${JSON.stringify(bad)} is a UsageError`, () => {
      assert.throws(() => parseCliArgs(['run', `--timeout=${bad}`, 'q']), usageError(/--timeout must be a positive number of seconds, got '/));
    });
  }

  it('--timeout beyond 7 days is a UsageError naming the limit (a timer cannot hold much more)', () => {
    assert.equal(parseCliArgs(['run', '--timeout=604800', 'q']).command === 'run', true);
    assert.throws(() => parseCliArgs(['run', '--timeout=3000000', 'q']), usageError(/--timeout must be at most 604800 seconds \(7 days\), got '3000000'/));
  });

  it('--timeout -1 as a separate argument is a UsageError too', () => {
    assert.throws(() => parseCliArgs(['run', '--timeout', '-1', 'q']), UsageError);
    assert.throws(() => parseCliArgs(['run', '--timeout', '0', 'q']), usageError(/got '0'/));
  });

  it('--timeout names the bad value', () => {
    assert.throws(() => parseCliArgs(['run', '--timeout', 'abc', 'q']), usageError(/got 'abc'/));
  });

  it('accepts a fractional timeout', () => {
    const cmd = parseCliArgs(['run', '--timeout', '0.25', 'q']);
    assert.equal(cmd.command === 'run' && cmd.timeoutSeconds, 0.25);
  });
});

describe('cli args: validate', () => {
  it('takes exactly one file', () => {
    assert.deepEqual(parseCliArgs(['validate', 'team.yaml']), { command: 'validate', file: 'team.yaml' });
  });

  it('no file or two files are UsageErrors', () => {
    assert.throws(() => parseCliArgs(['validate']), usageError(/exactly one FILE/));
    assert.throws(() => parseCliArgs(['validate', 'a.yaml', 'b.yaml']), usageError(/exactly one FILE/));
  });

  it('rejects flags', () => {
    assert.throws(() => parseCliArgs(['validate', '--config', 'a.yaml']), UsageError);
  });
});

describe('cli args: mcp', () => {
  it('takes --approve-tools and --config FILE (the team for calls that name none)', () => {
    assert.deepEqual(parseCliArgs(['mcp']), { command: 'mcp', approveTools: false });
    assert.deepEqual(parseCliArgs(['mcp', '--approve-tools']), { command: 'mcp', approveTools: true });
    assert.deepEqual(parseCliArgs(['mcp', '--config', 'team.yaml']), { command: 'mcp', approveTools: false, config: 'team.yaml' });
    assert.deepEqual(parseCliArgs(['mcp', '-c', 'team.yaml', '--approve-tools']), { command: 'mcp', approveTools: true, config: 'team.yaml' });
  });

  it('a question or an unknown flag is a UsageError', () => {
    assert.throws(() => parseCliArgs(['mcp', 'What is 2+2?']), usageError(/massgen mcp takes no arguments/));
    assert.throws(() => parseCliArgs(['mcp', '--workspace', 'x']), usageError(/Unknown option '--workspace'/));
    assert.throws(() => parseCliArgs(['mcp', '--config', ' ']), usageError(/--config needs a FILE/));
  });
});

describe('cli args: eval', () => {
  it('eval and eval merge parse into their commands (options: src/cli/eval/args.test.ts)', () => {
    assert.deepEqual(parseCliArgs(['eval', '--config', 'c.yaml', '--dataset', 'd.jsonl', '--out', 'o', '--shard', '1/2']), {
      command: 'eval', config: 'c.yaml', dataset: 'd.jsonl', out: 'o', resume: false, concurrency: 4, perProvider: 2, limit: undefined, shard: { index: 1, count: 2 }, approveTools: false, allowCommands: false, runLogs: true,
    });
    assert.deepEqual(parseCliArgs(['eval', 'merge', 'a', 'b', '--out', 'm']), { command: 'eval-merge', dirs: ['a', 'b'], out: 'm' });
  });

  it('eval mistakes are UsageErrors (exit 1 with the usage)', () => {
    assert.throws(() => parseCliArgs(['eval', '--config', 'c.yaml']), usageError(/massgen eval needs --dataset FILE/));
    assert.throws(() => parseCliArgs(['eval', 'merge', 'a']), usageError(/needs --out DIR/));
  });

  it('the usage text documents eval and merge', () => {
    assert.match(USAGE, /massgen eval --config FILE --dataset FILE\.jsonl --out DIR \[--resume\] \[--concurrency N\]/);
    assert.match(USAGE, /massgen eval merge DIR\.\.\. --out DIR/);
  });
});

describe('cli args: help, version, unknown command', () => {
  for (const argv of [[], ['--help'], ['-h'], ['help']]) {
    it(`${JSON.stringify(argv)} → help`, () => assert.deepEqual(parseCliArgs(argv), { command: 'help' }));
  }

  for (const argv of [['--version'], ['-v']]) {
    it(`${JSON.stringify(argv)} → version`, () => assert.deepEqual(parseCliArgs(argv), { command: 'version' }));
  }

  it('an unknown command is a UsageError naming it', () => {
    assert.throws(() => parseCliArgs(['start', 'q']), usageError(/^Unknown command 'start'\./));
  });

  it('a question without the run command is an unknown command', () => {
    assert.throws(() => parseCliArgs(['What is 2+2?']), usageError(/Unknown command 'What is 2\+2\?'/));
  });

  it('UsageError is an Error', () => {
    assert.ok(new UsageError('x') instanceof Error);
  });

  it('the usage text documents both commands and the exit codes', () => {
    assert.match(USAGE, /massgen run \[--config FILE\]/);
    assert.match(USAGE, /massgen validate FILE/);
    assert.match(USAGE, /massgen mcp \[--config FILE\] \[--approve-tools\]/);
    assert.match(USAGE, /MASSGEN_CONFIG/);
    assert.match(USAGE, /Exit codes: 0 answer, 1 configuration or usage error, 2 execution error, 3 timeout, 4 interrupted\./);
  });
});
