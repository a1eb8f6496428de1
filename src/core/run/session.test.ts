import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS, type MassGenConfig } from '../config/types';
import type { RunEvent } from '../engine/events';
import { reply, ScriptedProvider, type Script } from '../providers/scripted';
import { boardHasAnswers } from '../../../test/helpers/test-team';
import { SessionSetupError } from './errors';
import { RunSession, type RunSessionOptions } from './session';

const answerThenVote = (content: string, target: string): Script => (req) => (boardHasAnswers(req) ? reply.vote(target, 'best') : reply.answer(content));

function team(scripts: Record<string, Script>): { config: MassGenConfig; providers: Map<string, ScriptedProvider>; options: Pick<RunSessionOptions, 'config' | 'extraProviders' | 'engine'> } {
  const providers = new Map(Object.entries(scripts).map(([id, script]) => [id, new ScriptedProvider(`model-${id}`, script)]));
  const config: MassGenConfig = {
    agents: [...providers.keys()].map((id) => ({ id, backend: { type: 'chatcompletion', family: 'openai-compatible', model: `model-${id}` } })),
    orchestrator: { ...DEFAULT_ORCHESTRATOR },
    timeouts: { ...DEFAULT_TIMEOUTS, orchestratorTimeoutSeconds: 30, agentTurnTimeoutSeconds: 10 },
    source: 'test',
  };
  return { config, providers, options: { config, extraProviders: (a) => providers.get(a.id), engine: { retry: { baseDelayMs: 1, maxDelayMs: 5 } } } };
}

describe('run session', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'massgen-session-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('gives a listener that subscribed before start every event, from run_started on, in sequence', async () => {
    const { options } = team({ a: answerThenVote('four', 'agent1'), b: answerThenVote('4', 'agent1') });
    const session = new RunSession({ task: 'What is 2 + 2?', ...options });
    const seen: RunEvent[] = [];
    session.subscribe((e) => seen.push(e));
    const result = await session.start();
    assert.equal(result.reason, 'consensus');
    assert.equal(result.finalAnswer, 'four');
    assert.equal(seen[0].type, 'run_started');
    assert.equal(seen[1].type, 'round_started');
    assert.deepEqual(seen.map((e) => e.seq), seen.map((_, i) => i + 1));
    assert.equal(session.state.phase, 'done');
    assert.equal(session.state.lastSeq, seen.length);
    assert.equal(session.running, false);
  });

  it('escalate() asked before the engine runs: the next stage joins as the run starts; status.json records it', async () => {
    const { options, providers } = team({ a: answerThenVote('four', 'agent1'), b: answerThenVote('4', 'agent1'), c: answerThenVote('IV', 'agent1') });
    options.config.orchestrator.escalation = { stages: [['a', 'b'], ['c']], minAgreeing: 1 };
    const logDir = join(tmp, 'log');
    const session = new RunSession({ task: 'q', ...options, record: { logDir } });
    assert.deepEqual(session.stages, [['a', 'b'], ['c']], 'the plan, as the viewer shows it');
    session.escalate();
    const result = await session.start();
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(session.state.escalation?.stages.map((s) => [s.stage, s.reason]), [[1, 'start'], [2, 'user_note']]);
    assert.ok(providers.get('c')!.callCount > 0);
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.deepEqual(status.escalation.stages.map((s: { reason: string }) => s.reason), ['start', 'user_note']);
    assert.throws(() => session.escalate(), /ended/);
  });

  it('escalate() in a run without stages says so', () => {
    const { options } = team({ a: answerThenVote('x', 'agent1') });
    assert.throws(() => new RunSession({ task: 'q', ...options }).escalate(), /no escalation stages/);
    assert.equal(new RunSession({ task: 'q', ...options }).stages, null);
  });

  it('start() runs once: later calls return the same result', async () => {
    const { options, providers } = team({ a: answerThenVote('x', 'agent1') });
    const session = new RunSession({ task: 'q', ...options });
    const [r1, r2] = await Promise.all([session.start(), session.start()]);
    assert.equal(r1, r2);
    assert.equal(providers.get('a')!.callCount, 2);
  });

  it('keeps going when a listener throws on every event, and reports it once', async () => {
    const { options } = team({ a: answerThenVote('x', 'agent1') });
    const warnings: string[] = [];
    const session = new RunSession({ task: 'q', ...options, onWarning: (m) => warnings.push(m) });
    const later: RunEvent[] = [];
    session.subscribe(() => {
      throw new Error('view bug');
    });
    session.subscribe((e) => later.push(e));
    const result = await session.start();
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(warnings, ['a listener failed: view bug']);
    assert.equal(later[later.length - 1].type, 'run_ended', 'the listeners after it still see every event');
  });

  it('a log folder that cannot be written: the run still ends with its winner, with one warning', async () => {
    const { options } = team({ a: answerThenVote('four', 'agent1'), b: answerThenVote('4', 'agent1') });
    const logDir = join(tmp, 'log');
    mkdirSync(logDir);
    // A file where the agents' folder must go: every answer, vote and partial file fails (ENOTDIR, even as root).
    writeFileSync(join(logDir, 'agents'), '');
    const warnings: string[] = [];
    const result = await new RunSession({ task: 'q', ...options, record: { logDir }, onWarning: (m) => warnings.push(m) }).start();
    assert.equal(result.reason, 'consensus');
    assert.equal(result.winnerId, 'a');
    assert.equal(result.finalAnswer, 'four');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /run log .* stopped .*ENOTDIR/);
    assert.equal(result.answerFile, undefined, 'no path to a file that was not written');
  });

  it('a log folder that is a file: the run still starts and ends with its winner, with one warning', async () => {
    const { options } = team({ a: answerThenVote('four', 'agent1') });
    const logDir = join(tmp, 'log');
    writeFileSync(logDir, '');
    const warnings: string[] = [];
    const result = await new RunSession({ task: 'q', ...options, record: { logDir }, onWarning: (m) => warnings.push(m) }).start();
    assert.equal(result.winnerId, 'a');
    assert.equal(warnings.length, 1, warnings.join('\n'));
  });

  it('a cancel before start ends the run at once as cancelled, without a model call', async () => {
    const { options, providers } = team({ a: answerThenVote('x', 'agent1') });
    const session = new RunSession({ task: 'q', ...options });
    session.cancel();
    const result = await session.start();
    assert.equal(result.reason, 'cancelled');
    assert.equal(providers.get('a')!.callCount, 0);
  });

  it('the external signal cancels a run in flight, and the requests see it', async () => {
    const abort = new AbortController();
    const { options, providers } = team({ a: () => ({ ...reply.answer('slow'), text: 'thinking it over', delayMs: 2_000 }) });
    const session = new RunSession({ task: 'q', ...options, signal: abort.signal });
    session.subscribe((e) => e.type === 'text_delta' && abort.abort());
    const result = await session.start();
    assert.equal(result.reason, 'cancelled');
    assert.equal(providers.get('a')!.signals[0].aborted, true);
  });

  it('cancels one agent asked for before the engine existed', async () => {
    const { options } = team({ a: answerThenVote('x', 'agent1'), b: answerThenVote('y', 'agent1') });
    const session = new RunSession({ task: 'q', ...options });
    await session.prepare();
    session.cancelAgent('b');
    const result = await session.start();
    assert.equal(result.winnerId, 'a');
    assert.equal(session.state.agents.find((a) => a.id === 'b')?.failureCause, 'cancelled');
  });

  it('refuses a backend it cannot build as a config setup error, before any event', async () => {
    const { config } = team({ a: answerThenVote('x', 'agent1') });
    config.agents[0].backend = { type: 'vscode-lm', family: 'vscode-lm', model: 'copilot/gpt' };
    const session = new RunSession({ task: 'q', config });
    const seen: RunEvent[] = [];
    session.subscribe((e) => seen.push(e));
    await assert.rejects(session.start(), (err) => err instanceof SessionSetupError && err.kind === 'config' && /only works inside VS Code/.test(err.message));
    assert.equal(seen.length, 0);
  });

  it('keeps the record when asked: events.jsonl, status.json, the final answer', async () => {
    const { options } = team({ a: answerThenVote('four', 'agent1'), b: answerThenVote('4', 'agent1') });
    const logDir = join(tmp, 'log');
    const result = await new RunSession({ task: 'q', ...options, record: { logDir } }).start();
    assert.equal(result.logDir, logDir);
    assert.equal(readFileSync(result.answerFile!, 'utf8'), 'four');
    const events = readFileSync(join(logDir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunEvent);
    assert.equal(events[0].type, 'run_started');
    assert.equal(events[events.length - 1].type, 'run_ended');
    const status = JSON.parse(readFileSync(join(logDir, 'status.json'), 'utf8'));
    assert.equal(status.results.winner, 'a');
    assert.equal(status.results.end_reason, 'consensus');
  });

  it('a scratch run: agents edit their own copies; the winner change lists what it changed; the folders are gone after', async () => {
    const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
    const editor: Script = (_req, i) => (i === 0 ? write('src/a.ts', 'export const a = 2;\n') : i === 1 ? reply.answer('set a to 2') : reply.vote('agent1'));
    const { options } = team({ a: editor, b: (req) => (boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('looks right as is')) });
    const baseDir = join(tmp, 'scratch');
    const session = new RunSession({ task: 'q', ...options, files: { kind: 'scratch', baseDir, seed: [{ relativePath: 'src/a.ts', content: 'export const a = 1;\n' }] } });
    const result = await session.start();
    assert.equal(result.winnerId, 'a');
    assert.deepEqual(result.change?.files, [{ path: 'src/a.ts', status: 'modified', added: 1, removed: 1 }]);
    assert.equal(result.change?.fileChanges[0].after, 'export const a = 2;\n');
    assert.equal(existsSync(join(baseDir, session.id)), false, 'scratch folders removed when the run ended');
  });

  it('a workspace run: each answer version\'s patch stays readable after the copies are gone', async () => {
    const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
    const editor: Script = (_req, i) => (i === 0 ? write('a.txt', 'new\n') : i === 1 ? reply.answer('wrote a.txt') : reply.vote('agent1'));
    const { options } = team({ a: editor });
    const source = join(tmp, 'project');
    mkdirSync(source);
    writeFileSync(join(source, 'a.txt'), 'old\n');
    const session = new RunSession({ task: 'q', ...options, files: { kind: 'workspace', source, baseDir: join(tmp, 'copies') } });
    const result = await session.start();
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.match(session.patchOf('agent1.1') ?? '', /-old\n\+new/);
    assert.equal(session.patchOf('agent1.1'), result.change?.patch);
  });

  describe('lifetime', () => {
    const seed = [{ relativePath: 'a.txt', content: 'a\n' }];

    it('50 sessions on one long-lived signal leave no listener on it', async () => {
      const outer = new AbortController();
      for (let i = 0; i < 50; i++) {
        const { options } = team({ a: answerThenVote('x', 'agent1') });
        await new RunSession({ task: 'q', ...options, signal: outer.signal }).start();
      }
      assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    });

    it('a session that cannot be set up lets go of the signal without being started or disposed', async () => {
      const { config } = team({ a: answerThenVote('x', 'agent1') });
      config.agents[0].backend = { type: 'vscode-lm', family: 'vscode-lm', model: 'copilot/gpt' };
      const outer = new AbortController();
      const session = new RunSession({ task: 'q', config, signal: outer.signal });
      await assert.rejects(session.prepare(), SessionSetupError);
      await assert.rejects(session.result, SessionSetupError);
      assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    });

    it('prepare() then dispose() removes the copies; the session cannot start after', async () => {
      const { options } = team({ a: answerThenVote('x', 'agent1') });
      const outer = new AbortController();
      const baseDir = join(tmp, 'scratch');
      const session = new RunSession({ task: 'q', ...options, signal: outer.signal, files: { kind: 'scratch', baseDir, seed } });
      await session.prepare();
      assert.equal(existsSync(join(baseDir, session.id)), true);
      await Promise.all([session.dispose(), session.dispose()]);
      assert.equal(existsSync(join(baseDir, session.id)), false);
      assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
      await assert.rejects(session.start(), (err) => err instanceof SessionSetupError && err.kind === 'cancelled');
      await assert.rejects(session.result, (err) => err instanceof SessionSetupError && err.kind === 'cancelled');
    });

    it('dispose() during a run cancels it and resolves once its copies are gone', async () => {
      const { options } = team({ a: () => ({ ...reply.answer('slow'), text: 'thinking', delayMs: 5_000 }) });
      const baseDir = join(tmp, 'scratch');
      const session = new RunSession({ task: 'q', ...options, files: { kind: 'scratch', baseDir, seed } });
      let disposed: Promise<void> | undefined;
      session.subscribe((e) => {
        if (e.type === 'text_delta') disposed ??= session.dispose();
      });
      const result = await session.start();
      assert.equal(result.reason, 'cancelled');
      await disposed;
      assert.equal(existsSync(join(baseDir, session.id)), false);
    });

    it('result settles after run_ended, once the copies are gone and the caller\'s signal is let go', async () => {
      const { options } = team({ a: answerThenVote('x', 'agent1') });
      const outer = new AbortController();
      const baseDir = join(tmp, 'scratch');
      const session = new RunSession({ task: 'q', ...options, signal: outer.signal, files: { kind: 'scratch', baseDir, seed } });
      const order: string[] = [];
      session.subscribe((e) => e.type === 'run_ended' && order.push(`run_ended, copies there: ${existsSync(join(baseDir, session.id))}`));
      const closed = session.result.then(() => order.push(`result, copies there: ${existsSync(join(baseDir, session.id))}, signal listeners: ${getEventListeners(outer.signal, 'abort').length}`));
      void session.start();
      await closed;
      assert.deepEqual(order, ['run_ended, copies there: true', 'result, copies there: false, signal listeners: 0']);
    });
  });
});
