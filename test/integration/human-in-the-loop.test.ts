// The human in the loop through the CLI, as the issue checks it: the real bundle as a subprocess driven on stdin
// (--notes-from-stdin), scripted agents behind the real OpenAI SDK. A note written while both agents stream must
// reach a later request of each model and events.jsonl; /answer ends the run at once with exit 0; --continue carries
// the earlier run into the next one and records the chain.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSuite, readJsonl, runCli, type CliRun, type CliRunOptions } from '../helpers/cli';
import { eventually } from '../helpers/eventually';
import { coordinationScript, startFakeOpenAI, type FakeHandler, type FakeMessage } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-hitl-'));

let configs = 0;
function team(baseUrl: string, models: string[]): string {
  const file = join(work, `config-${++configs}.yaml`);
  const agents = models.map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend:\n      type: chatcompletion\n      model: ${m}\n      base_url: ${baseUrl}\n`).join('');
  writeFileSync(file, `agents:\n${agents}`);
  return file;
}

/** Each model's first reply streams slowly (`firstMs` before its first chunk), so notes can arrive while both stream. */
function slowFirst(base: FakeHandler, firstMs: Record<string, number>): FakeHandler {
  const seen = new Set<string>();
  return async (request) => {
    const reply = await base(request);
    const model = request.body.model;
    if (seen.has(model) || !firstMs[model] || 'error' in reply) return reply;
    seen.add(model);
    return { ...reply, ttftMs: firstMs[model] };
  };
}

const text = (messages: FakeMessage[]) => messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');

/** Resolves when `ready()` holds, polling every 20 ms. */

describe('human in the loop through the CLI (subprocess)', function () {
  this.timeout(30_000);
  const suite = cliSuite(work);
  const run = (args: string[], opts: Omit<CliRunOptions, 'cwd'> = {}): Promise<CliRun> => runCli(suite.cli, args, { cwd: work, ...opts });

  it('a note on stdin while both agents stream reaches a later request of each model and events.jsonl', async () => {
    suite.server = await startFakeOpenAI(slowFirst(coordinationScript({ m1: { voteFor: 'agent2' }, m2: { voteFor: 'agent2' } }), { m1: 1500, m2: 1500 }));
    const logDir = join(work, 'logs-note');
    const note = 'Please answer in metric units only.';
    const r = await run(['run', '--notes-from-stdin', '--config', team(suite.server.baseUrl, ['m1', 'm2']), '--log-dir', logDir, 'How tall is the tower?'], {
      stdin: true,
      onSpawn: async ({ write }) => {
        await eventually(() => suite.server!.chatRequests().length >= 2, { what: 'both agents requesting' });
        write('@agent9 is anyone there?\n');
        write(`${note}\n`);
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /no agent agent9 in this run \(agent1, agent2\); the note was not sent/);
    const requests = suite.server.chatRequests();
    for (const model of ['m1', 'm2']) {
      const own = requests.filter((q) => q.body.model === model);
      assert.ok(!text(own[0].body.messages).includes(note), `${model}'s first request went out before the note`);
      const later = own.slice(1).filter((q) => text(q.body.messages).includes(note));
      assert.ok(later.length >= 1, `${model} saw the note in a later request`);
      assert.match(text(later[0].body.messages), /NOTE FROM THE USER \(take it into account from now on\):\n- Please answer in metric units only\./);
    }
    const events = readJsonl(join(logDir, 'events.jsonl'));
    const added = events.filter((e) => e.type === 'note_added');
    assert.deepEqual(added.map((e) => [e.text, e.agentIds, e.changesTask]), [[note, ['a', 'b'], false]]);
    assert.deepEqual(events.filter((e) => e.type === 'note_delivered').map((e) => e.agentId).sort(), ['a', 'b']);
    assert.match(r.stderr, /note: Please answer in metric units only\./);
    const [noted] = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8')).notes;
    assert.deepEqual([noted.text, noted.to, [...noted.delivered_to].sort()], [note, ['a', 'b'], ['a', 'b']]);
  });

  it('/answer ends the run at once: exit 0, the best answer on stdout, user_stop in status.json', async () => {
    suite.server = await startFakeOpenAI(slowFirst(coordinationScript({ fast: { answer: 'The quick answer.' } }), { slow: 20_000 }));
    const logDir = join(work, 'logs-answer');
    const r = await run(['run', '--notes-from-stdin', '--config', team(suite.server.baseUrl, ['fast', 'slow']), '--log-dir', logDir, 'Q'], {
      stdin: true,
      onSpawn: async ({ write }) => {
        await eventually(() => existsSync(join(logDir, 'agents', 'a', 'agent1.1.txt')), { what: 'the fast answer' });
        write('/answer\n');
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'The quick answer.\n');
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.equal(status.results.end_reason, 'user_stop');
    assert.equal(status.coordination.end_reason, 'user_stop');
    assert.equal(status.results.winner, 'a');
    const slow = suite.server.chatRequests().filter((q) => q.body.model === 'slow');
    assert.equal(await slow[0].outcome, 'client_closed', 'the slow stream was stopped');
  });

  it('/answer in automation mode: COMPLETED: user_stop, exit 0', async () => {
    suite.server = await startFakeOpenAI(slowFirst(coordinationScript({ fast: { answer: 'Automated answer.' } }), { slow: 20_000 }));
    const logDir = join(work, 'logs-answer-auto');
    const r = await run(['run', '--automation', '--notes-from-stdin', '--config', team(suite.server.baseUrl, ['fast', 'slow']), '--log-dir', logDir, 'Q'], {
      stdin: true,
      onSpawn: async ({ write }) => {
        await eventually(() => existsSync(join(logDir, 'agents', 'a', 'agent1.1.txt')), { what: 'the fast answer' });
        write('/answer\n');
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^WINNER: a$/m);
    assert.match(r.stdout, /^COMPLETED: user_stop$/m);
  });

  it('--continue gives the agents the earlier question and answer and records the chain; a bad LOG_DIR is a clear error', async () => {
    suite.server = await startFakeOpenAI(coordinationScript({ m1: { answer: 'Paris is the capital of France.' } }));
    const config = team(suite.server.baseUrl, ['m1']);
    const first = join(work, 'logs-first');
    assert.equal((await run(['run', '--config', config, '--log-dir', first, 'What is the capital of France?'])).code, 0);
    const before = suite.server.chatRequests().length;

    const second = join(work, 'logs-second');
    // Another model answers the follow-up: the scripted one would only vote for the answer it sees in the context.
    const r = await run(['run', '--config', team(suite.server.baseUrl, ['m2']), '--log-dir', second, '--continue', first, 'And its population?']);
    assert.equal(r.code, 0, r.stderr);
    const prompt = text(suite.server.chatRequests()[before].body.messages);
    assert.match(prompt, /<PREVIOUS RUN>\nQuestion: What is the capital of France\?\nFinal answer:\nParis is the capital of France\./);
    assert.match(prompt, /Follow-up: And its population\?/);
    assert.deepEqual(JSON.parse(readFileSync(join(second, 'continued-from.json'), 'utf8')), { log_dir: first, question: 'What is the capital of France?', winner: 'a' });

    const sent = suite.server.chatRequests().length;
    const missing = await run(['run', '--config', config, '--continue', join(work, 'no-such-run'), 'More?']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Configuration error: cannot continue .*no-such-run: its status\.json cannot be read/);
    assert.equal(suite.server.chatRequests().length, sent, 'nothing was sent for the bad LOG_DIR');
  });
});
