import assert from 'node:assert/strict';
import { parseEvalArgs } from './args';

class Usage extends Error {}
const parse = (args: string[]) => parseEvalArgs(args, (m) => new Usage(m));
const fails = (args: string[], message: RegExp) => assert.throws(() => parse(args), (err: Error) => err instanceof Usage && message.test(err.message));
const base = ['--config', 'team.yaml', '--dataset', 'd.jsonl', '--out', 'out'];

describe('massgen eval arguments', () => {
  it('the defaults', () => {
    assert.deepEqual(parse(base), { command: 'eval', config: 'team.yaml', dataset: 'd.jsonl', out: 'out', resume: false, concurrency: 4, perProvider: 2, limit: undefined, shard: undefined, approveTools: false, allowCommands: false, runLogs: true });
  });

  it('every option', () => {
    assert.deepEqual(parse([...base, '--resume', '--concurrency', '8', '--per-provider', '3', '--limit', '50', '--shard', '2/4', '--baseline', 'self-consistency', '--baseline-agent', 'b', '--samples', '5', '--approve-tools', '--allow-commands', '--no-run-logs']), {
      command: 'eval', config: 'team.yaml', dataset: 'd.jsonl', out: 'out', resume: true, concurrency: 8, perProvider: 3, limit: 50, shard: { index: 2, count: 4 },
      baseline: 'self-consistency', baselineAgent: 'b', samples: 5, approveTools: true, allowCommands: true, runLogs: false,
    });
  });

  it('--escalation: K, or agent ids with \',\' inside a stage and \';\' between stages', () => {
    assert.deepEqual(parse([...base, '--escalation', '2']), { ...parse(base), escalation: { start: 2 } });
    assert.deepEqual((parse([...base, '--escalation', ' cheap-a, cheap-b ; strong']) as { escalation?: unknown }).escalation, { stages: [['cheap-a', 'cheap-b'], ['strong']] });
  });

  it('merge', () => {
    assert.deepEqual(parse(['merge', 's1', 's2', '--out', 'all']), { command: 'eval-merge', dirs: ['s1', 's2'], out: 'all' });
    fails(['merge', 's1'], /needs --out DIR/);
    fails(['merge', '--out', 'x'], /needs the shard folders/);
  });

  it('clear errors', () => {
    fails(['--dataset', 'd.jsonl', '--out', 'o'], /needs --config FILE/);
    fails(['--config', 'c', '--out', 'o'], /needs --dataset FILE \(JSONL/);
    fails([...base, 'What is 2+2?'], /takes no QUESTION/);
    fails([...base, '--concurrency', '0'], /--concurrency must be a whole number of at least 1, got '0'/);
    fails([...base, '--limit', '2.5'], /--limit must be a whole number/);
    fails([...base, '--shard', '5/4'], /--shard 5\/4: K must be between 1 and N/);
    fails([...base, '--baseline', 'majority'], /--baseline must be self-consistency/);
    fails([...base, '--samples', '3'], /set up --baseline self-consistency; add it/);
    fails([...base, '--baseline', 'self-consistency', '--samples', '1'], /--samples must be at least 2/);
    fails([...base, '--escalation', '0'], /--escalation 0: K must be at least 1/);
    fails([...base, '--escalation', 'a,b;;c'], /--escalation 'a,b;;c': a stage is empty/);
    fails([...base, '--frobnicate'], /Unknown option '--frobnicate'/);
  });
});
