// `massgen eval` end to end, as the issue checks it: the real CLI bundle as a subprocess, scripted agents behind
// the real OpenAI SDK on a fake server on 127.0.0.1. A team whose members each answer one item of three right and
// whose votes always pick the right member must score team 3/3, each member 1/3, oracle 3/3; the report must chart
// it without loading anything; --resume on a finished eval must make no model call. Also: an escalating team and
// the Pareto front, shards and merge, a code task scored by its checks in the real sandbox, bad dataset lines,
// Ctrl-C keeping finished items, an unreachable server, and the key never written anywhere.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSuite, readJsonl, runCli, type CliRun, type CliRunOptions } from '../helpers/cli';
import { git } from '../helpers/repo';
import { startFakeOpenAI, type FakeHandler, type FakeMessage } from '../fakes/openai-server';

const work = mkdtempSync(join(tmpdir(), 'massgen-eval-'));

const SECRET = 'sk-eval-SECRET-4f1d2c3b5a69';

/** Three items; model mK is right on item K only, and every voter votes for agentK there. */
const ITEMS = [
  { line: { id: 'q1', question: 'What is the capital of France?', answer: 'Paris' }, right: 'm1', answers: { m1: 'It is Paris.\nAnswer: Paris', m2: 'm2 says <img src=https://evil.example/pixel.png> <script>alert(1)</script>\nAnswer: Lyon', m3: 'm3 thinks Marseille.\nAnswer: Marseille' } },
  { line: { id: 'q2', question: 'Which planet is known as the Red Planet?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], answer: 'B' }, right: 'm2', answers: { m1: 'm1: Venus is red-hot.\nAnswer: A', m2: 'm2: Mars, for its iron oxide.\nAnswer: B', m3: 'm3: the big one.\nAnswer: C' } },
  { line: { id: 'q3', question: 'How many metres are in a kilometre?', answer: '1000.0' }, right: 'm3', answers: { m1: 'm1 guesses.\nAnswer: 100', m2: 'm2 guesses too.\nAnswer: 10', m3: 'm3 knows the prefix kilo.\nAnswer: 1,000' } },
] as const;
type Model = 'm1' | 'm2' | 'm3';

const textOf = (m: FakeMessage) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')) + (m.tool_calls ?? []).map((c) => c.function.arguments).join('');

/** Plays the scripted members, stateless: which item is read from the task, "has answered" from the conversation. */
function membersScript(options: { slowItem?: () => string | undefined } = {}): FakeHandler {
  return ({ body }) => {
    const all = body.messages.map(textOf).join('\n');
    const item = ITEMS.find((it) => all.includes(it.line.question));
    if (!item) throw new Error('no known question in the request');
    const model = body.model as Model;
    const answer = item.answers[model];
    const offered = new Set((body.tools ?? []).map((t) => t.function.name));
    const slow = options.slowItem?.() === item.line.id ? { ttftMs: 30_000 } : {};
    const answered = body.messages.some((m) => m.role === 'assistant' && (m.tool_calls ?? []).some((c) => c.function.name === 'new_answer'));
    const usage = { promptTokens: 100, completionTokens: 20 };
    if (offered.has('new_answer') && !answered) return { ...slow, usage, toolCalls: [{ name: 'new_answer', arguments: { content: answer } }] };
    const k = Number(item.right.slice(1));
    return { ...slow, usage, toolCalls: [{ name: 'vote', arguments: { agent_id: `agent${k}`, reason: `agent${k} is right` } }] };
  };
}

/**
 * The members for an escalating team: a voter votes for the right member's answer once it is on the board, else
 * for its own (model mK is agent K), so stage 1 (a, b) settles q1 and q2 but disagrees on q3, whose right answer
 * only stage 2 (c) has.
 */
function stagedScript(): FakeHandler {
  return ({ body }) => {
    const all = body.messages.map(textOf).join('\n');
    const item = ITEMS.find((it) => all.includes(it.line.question));
    if (!item) throw new Error('no known question in the request');
    const model = body.model as Model;
    const offered = new Set((body.tools ?? []).map((t) => t.function.name));
    const answered = body.messages.some((m) => m.role === 'assistant' && (m.tool_calls ?? []).some((c) => c.function.name === 'new_answer'));
    const usage = { promptTokens: 100, completionTokens: 20 };
    if (offered.has('new_answer') && !answered) return { usage, toolCalls: [{ name: 'new_answer', arguments: { content: item.answers[model] } }] };
    const right = Number(item.right.slice(1));
    const k = all.includes(`<agent${right}>`) ? right : Number(model.slice(1));
    return { usage, toolCalls: [{ name: 'vote', arguments: { agent_id: `agent${k}`, reason: `agent${k} is right` } }] };
  };
}

function writeTeam(url: string, models: string[], extra = ''): string {
  const file = join(work, `team-${Math.random().toString(36).slice(2)}.yaml`);
  const agents = models.map((m, i) => `  - id: ${String.fromCharCode(97 + i)}\n    backend: { type: chatcompletion, model: ${m}, base_url: ${url}, api_key: ${SECRET} }\n`).join('');
  writeFileSync(file, `agents:\n${agents}${extra}`);
  return file;
}

function writeDataset(name: string, lines: readonly unknown[]): string {
  const file = join(work, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

/** Every file under `dir`, for the "no key anywhere" check. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Tags of the page with their attributes (every attribute value is quoted and escaped, so this parse is exact). */
function tags(html: string): { name: string; attrs: Record<string, string> }[] {
  return [...html.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
    name: m[1].toLowerCase(),
    attrs: Object.fromEntries([...m[2].matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? ''])),
  }));
}

function assertSelfContained(html: string): void {
  const all = tags(html);
  assert.ok(all.length > 50, 'the page parsed into tags');
  for (const t of all) {
    assert.ok(!['script', 'link', 'iframe', 'img', 'object', 'embed', 'base', 'frame', 'audio', 'video', 'source'].includes(t.name), `no <${t.name}> element`);
    for (const [name, value] of Object.entries(t.attrs)) {
      assert.ok(!/^on/.test(name), `no event handler attribute (${name})`);
      if (['src', 'href', 'xlink:href', 'action', 'formaction', 'poster', 'srcset', 'data', 'background'].includes(name)) assert.fail(`no ${name}= attribute on <${t.name}> (${value})`);
      assert.doesNotMatch(value, /^\s*(https?:|\/\/|javascript:)/i, `attribute ${name} loads nothing`);
    }
  }
  // Outside tags: the only place a URL may appear is escaped model text, which is inert.
  assert.doesNotMatch(html, /@import|url\(/i);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
}

describe('massgen eval (subprocess, fake OpenAI server)', function () {
  this.timeout(90_000);
  const suite = cliSuite(work);
  const run = (args: string[], opts: Omit<CliRunOptions, 'cwd'> = {}): Promise<CliRun> => runCli(suite.cli, args, { cwd: work, ...opts, env: { TMPDIR: mkdtempSync(join(work, 'tmp-')), ...opts.env } });

  it('scores team 3/3, each member 1/3, oracle 3/3; charts it self-contained; --resume makes no model call', async () => {
    suite.server = await startFakeOpenAI(membersScript());
    const config = writeTeam(suite.server.baseUrl, ['m1', 'm2', 'm3']);
    const dataset = writeDataset('three.jsonl', ITEMS.map((i) => i.line));
    const out = join(work, 'eval-three');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(r.code, 0, r.stderr);

    const s = summaryOf(out);
    assert.deepEqual([s.systems.team.correct, s.systems.team.n, s.systems.team.accuracy], [3, 3, 1]);
    for (const id of ['a', 'b', 'c']) assert.deepEqual([s.systems[id].correct, s.systems[id].n, s.systems[id].kind], [1, 3, 'member'], id);
    assert.deepEqual(s.oracle, { correct: 3, n: 3, accuracy: 1, ci95: s.oracle.ci95 });
    // Wilson 95 % for 3/3 and 1/3.
    assert.deepEqual(s.systems.team.ci95, [0.4385, 1]);
    assert.deepEqual(s.systems.a.ci95, [0.0615, 0.7923]);
    // The team: 3 answers + 3 votes per item; each member alone: one call per item.
    assert.equal(s.systems.team.calls, 18);
    assert.equal(s.systems.a.calls, 3);
    assert.equal(s.systems.team.tokens, 18 * 120);
    assert.equal(s.systems.team.cost_usd, null, 'a local server has no known price');
    assert.equal(s.best_member, 'a');
    assert.deepEqual([s.team_vs_best_member.team_only, s.team_vs_best_member.member_only, s.team_vs_best_member.cost_ratio, s.team_vs_best_member.cost_basis], [2, 0, 6, 'tokens']);
    assert.deepEqual(s.agreement.members_right, [0, 3, 0, 0]);
    assert.equal(s.complete, true);
    assert.equal(suite.server.chatRequests().length, 27);

    const rows = readJsonl(join(out, 'results.jsonl'));
    assert.equal(rows.length, 12);
    const q3team = rows.find((x) => x.item === 'q3' && x.system === 'team')!;
    assert.deepEqual([q3team.correct, q3team.extracted, q3team.winner, q3team.calls], [true, '1,000', 'c', 6]);
    assert.deepEqual(Object.keys(rows[0]).filter((k) => ['answer', 'correct', 'calls', 'tokens', 'cost_usd', 'seconds'].includes(k)).sort(), ['answer', 'calls', 'correct', 'cost_usd', 'seconds', 'tokens']);
    const q2b = rows.find((x) => x.item === 'q2' && x.system === 'b')!;
    assert.deepEqual([q2b.correct, q2b.extracted, q2b.calls], [true, 'B', 1]);
    // Each member alone got exactly the framing of its first turn in the team: the same system prompt and task.
    const firstTurns = suite.server.chatRequests().filter((q) => q.body.model === 'm2' && q.body.messages.length === 2 && textOf(q.body.messages[1]).includes('Red Planet'));
    assert.equal(firstTurns.length, 2, 'm2 on q2: its first turn in the team and its run alone');
    const untimed = (m: FakeMessage) => textOf(m).replace(/CURRENT TIME is \*\*[^*]*\*\*/, '');
    assert.equal(untimed(firstTurns[0].body.messages[0]), untimed(firstTurns[1].body.messages[0]));
    assert.deepEqual(firstTurns[0].body.messages[1], firstTurns[1].body.messages[1]);
    assert.match(textOf(firstTurns[0].body.messages[1]), /A\. Venus\nB\. Mars\nC\. Jupiter\nD\. Saturn/);

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assertSelfContained(html);
    assert.ok((html.match(/<svg /g) ?? []).length >= 4, 'four inline charts');
    assert.match(html, /The team beats its best member: <b>100\.0%<\/b> \(3\/3\) against <b>a<\/b> 33\.3% \(1\/3\)/);
    assert.match(html, /oracle \(any member right\)/);
    // The hostile answer is shown as text, never as markup.
    assert.ok(html.includes('&lt;img src=https://evil.example/pixel.png&gt; &lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!html.includes('<script>alert(1)'));

    assert.match(r.stdout, /^team\s+3\/3\s+100\.0%/m);
    assert.match(r.stdout, /^a \(m1\)\s+1\/3\s+33\.3%/m);
    assert.match(r.stdout, /^oracle \(any member right\)\s+3\/3/m);
    assert.match(r.stderr, /\[12\/12\] q3 · /, 'plain progress lines when stderr is not a terminal');
    assert.ok(existsSync(join(out, 'runs', 'q1', 'team', 'status.json')), 'each run keeps its log');

    for (const file of filesUnder(out)) assert.ok(!readFileSync(file, 'utf8').includes(SECRET), `${file} holds no key`);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET));

    const before = suite.server.chatRequests().length;
    const again = await run(['eval', '--config', config, '--dataset', dataset, '--out', out, '--resume']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(suite.server.chatRequests().length, before, '--resume on a finished eval makes no model call');
    assert.match(again.stderr, /Nothing to run/);
    assert.equal(readJsonl(join(out, 'results.jsonl')).length, 12);
    assert.equal(summaryOf(out).systems.team.correct, 3);

    const refused = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already holds an eval .* pass --resume/);
  });

  it('escalation: team-escalating as configured, team all agents from the start, the stages per item, the Pareto front', async () => {
    suite.server = await startFakeOpenAI(stagedScript());
    const price = (usd: number) => `pricing: { input_per_million: ${usd}, cached_input_per_million: ${usd}, output_per_million: ${usd} }`;
    const config = join(work, 'staged.yaml');
    writeFileSync(config, `agents:\n${[['a', 'm1', 1], ['b', 'm2', 1], ['c', 'm3', 100]].map(([id, m, usd]) => `  - id: ${id}\n    backend: { type: chatcompletion, model: ${m}, base_url: ${suite.server!.baseUrl}, api_key: ${SECRET}, ${price(usd as number)} }\n`).join('')}orchestrator:\n  escalation: { stages: [[a, b], [c]] }\n`);
    const dataset = writeDataset('staged.jsonl', ITEMS.map((i) => i.line));
    const out = join(work, 'eval-staged');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(r.code, 0, r.stderr);

    const rows = readJsonl(join(out, 'results.jsonl'));
    const stepped = (id: string) => rows.find((x) => x.item === id && x.system === 'team-escalating')!;
    assert.deepEqual(['q1', 'q2', 'q3'].map((id) => [stepped(id).correct, stepped(id).escalation]), [
      [true, { stages_called: 1, reasons: [] }],
      [true, { stages_called: 1, reasons: [] }],
      [true, { stages_called: 2, reasons: ['disagreement'] }],
    ]);
    assert.ok(rows.filter((x) => x.system === 'team').every((x) => x.escalation === undefined && x.correct), 'team: no stages');
    const cCalls = suite.server.chatRequests().filter((q) => q.body.model === 'm3').length;
    // c: one call alone per item, two per item in the team (answer, vote), and two on q3 in the escalating team.
    assert.equal(cCalls, 3 + 6 + 2);

    const s = summaryOf(out);
    assert.deepEqual([s.systems.team.correct, s.systems['team-escalating'].correct, s.systems['team-escalating'].kind], [3, 3, 'team-escalating']);
    assert.deepEqual(s.systems['team-escalating'].escalation, { items: 3, escalated: 1, share: 0.3333, stages_called: [3, 1], reasons: { disagreement: 1 } });
    assert.deepEqual([s.pareto_front, s.pareto_unknown_cost], [['a', 'b', 'team-escalating'], []]);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assertSelfContained(html);
    assert.equal((html.match(/class="pareto-point"/g) ?? []).length, 3);
    assert.match(html, /<p class="reading">team-escalating keeps 1\.00 of team&#39;s accuracy at 0\.\d\d× its cost per item, calling a later stage on 1 of 3 item\(s\)\.<\/p>/);
    assert.match(r.stdout, /^team-escalating \(a, b → c\)\s+3\/3\s+100\.0%/m);

    const typo = await run(['eval', '--config', config, '--dataset', dataset, '--out', join(work, 'eval-typo'), '--escalation', 'a,cc;b']);
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /Configuration error: --escalation: no agent has id 'cc' \(did you mean c\?\)/);
  });

  it('--shard K/N splits the items and merge joins the shards into the same summary', async () => {
    suite.server = await startFakeOpenAI(membersScript());
    const config = writeTeam(suite.server.baseUrl, ['m1', 'm2', 'm3']);
    const dataset = writeDataset('three-shards.jsonl', ITEMS.map((i) => i.line));
    const [s1, s2, merged] = ['shard-1', 'shard-2', 'merged'].map((d) => join(work, d));
    const r1 = await run(['eval', '--config', config, '--dataset', dataset, '--out', s1, '--shard', '1/2', '--concurrency', '2']);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stderr, /Shard 1\/2: 2 of 3 item\(s\)/);
    assert.deepEqual([...new Set(readJsonl(join(s1, 'results.jsonl')).map((x) => x.item))].sort(), ['q1', 'q3']);
    assert.equal(summaryOf(s1).complete, true);

    const partial = await run(['eval', 'merge', s1, '--out', merged]);
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stderr, /shard\(s\) 2\/2 are missing/);
    assert.equal(summaryOf(merged).complete, false);

    const r2 = await run(['eval', '--config', config, '--dataset', dataset, '--out', s2, '--shard', '2/2']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.deepEqual([...new Set(readJsonl(join(s2, 'results.jsonl')).map((x) => x.item))], ['q2']);

    const m = await run(['eval', 'merge', s1, s2, '--out', merged]);
    assert.equal(m.code, 0, m.stderr);
    const s = summaryOf(merged);
    assert.deepEqual([s.systems.team.correct, s.systems.team.n, s.systems.a.correct, s.systems.b.correct, s.systems.c.correct, s.oracle.correct, s.oracle.n, s.complete], [3, 3, 1, 1, 1, 3, 3, true]);
    assert.deepEqual(readJsonl(join(merged, 'results.jsonl')).map((x) => x.item), ['q1', 'q1', 'q1', 'q1', 'q2', 'q2', 'q2', 'q2', 'q3', 'q3', 'q3', 'q3'], 'in dataset order');
    assertSelfContained(readFileSync(join(merged, 'report.html'), 'utf8'));
    const logDir = readJsonl(join(merged, 'results.jsonl'))[0].log_dir as string;
    assert.ok(existsSync(join(merged, logDir, 'status.json')), 'merged rows still lead to their run logs');

    // Shards of another eval do not mix.
    const other = writeDataset('other.jsonl', [{ id: 'x', question: 'What is the capital of France?', answer: 'Paris' }]);
    const s3 = join(work, 'shard-other');
    assert.equal((await run(['eval', '--config', config, '--dataset', other, '--out', s3, '--shard', '1/2'])).code, 0);
    const mixed = await run(['eval', 'merge', s1, s3, '--out', join(work, 'merged-mixed')]);
    assert.equal(mixed.code, 1);
    assert.match(mixed.stderr, /Cannot merge: .*shard-other evaluated another dataset/);
  });

  it('a code task is right when the winner passes its checks (real git repository, real sandbox)', async () => {
    const root = join(work, 'code');
    const repo = join(root, 'project');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src', 'add.js'), 'exports.add = (a, b) => a - b;\n');
    writeFileSync(join(repo, 'test.js'), "const { add } = require('./src/add');\nif (add(2, 3) !== 5) { console.log('add(2, 3) should be 5, got ' + add(2, 3)); process.exit(1); }\nconsole.log('1 passing');\n");
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'init');
    const fixes: Record<string, string> = { m1: 'exports.add = (a, b) => Math.abs(a - b);\n', m2: 'exports.add = (a, b) => a + b;\n' };
    suite.server = await startFakeOpenAI(({ body }) => {
      const wrote = body.messages.some((m) => (m.tool_calls ?? []).some((c) => c.function.name === 'write_file'));
      const answered = body.messages.some((m) => (m.tool_calls ?? []).some((c) => c.function.name === 'new_answer'));
      const offered = new Set((body.tools ?? []).map((t) => t.function.name));
      if (!wrote) return { toolCalls: [{ name: 'write_file', arguments: { path: 'src/add.js', content: fixes[body.model] } }] };
      if (!answered && offered.has('new_answer')) return { toolCalls: [{ name: 'new_answer', arguments: { content: `${body.model} changed add().` } }] };
      return { toolCalls: [{ name: 'vote', arguments: { agent_id: 'agent2', reason: 'its change passes the tests' } }] };
    });
    const config = writeTeam(suite.server.baseUrl, ['m1', 'm2']);
    const dataset = join(root, 'tasks.jsonl');
    writeFileSync(dataset, `${JSON.stringify({ id: 'fix-add', task: 'Make node test.js pass.', workspace: 'project', checks: ['node test.js'] })}\n`);
    const out = join(work, 'eval-code');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const s = summaryOf(out);
    assert.deepEqual([s.systems.team.correct, s.systems.a.correct, s.systems.b.correct, s.oracle.correct, s.oracle.n], [1, 0, 1, 1, 1]);
    const rows = readJsonl(join(out, 'results.jsonl'));
    assert.deepEqual(rows.find((x) => x.system === 'a')!.failed_checks, ['node test.js']);
    assert.deepEqual(rows.find((x) => x.system === 'team')!.failed_checks, []);
    assert.equal(rows.find((x) => x.system === 'team')!.winner, 'b');
    assert.equal(readFileSync(join(repo, 'src', 'add.js'), 'utf8'), 'exports.add = (a, b) => a - b;\n', 'the workspace is untouched');
    assert.match(readFileSync(join(out, rows.find((x) => x.system === 'team')!.log_dir as string, 'final', 'b', 'changes.patch'), 'utf8'), /^\+exports\.add = \(a, b\) => a \+ b;$/m);
  });

  it('bad dataset lines: every problem named by its line, exit 1, no model call', async () => {
    suite.server = await startFakeOpenAI(membersScript());
    const config = writeTeam(suite.server.baseUrl, ['m1', 'm2']);
    const dataset = writeDataset('bad.jsonl', [
      { id: 'q1', question: 'Fine?', answer: 'yes' },
      '{"id": "q2", "question": "unterminated',
      { id: 'q3', question: 'No answer' },
      { id: 'q1', question: 'Again', answer: 'x' },
      { id: 'q5', question: 'Pick', choices: ['a', 'b', 'c', 'd'], answer: 'E' },
      { id: 'q6', task: 'Fix it', workspace: 'no-such-folder', checks: ['npm test'] },
      '[1, 2]',
    ]);
    const out = join(work, 'eval-bad');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(r.code, 1);
    for (const line of [/bad\.jsonl:2: not valid JSON/, /bad\.jsonl:3: "answer" is missing/, /bad\.jsonl:4: the id "q1" is already used on line 1/, /bad\.jsonl:5: "answer" "E" is not one of the 4 choices \(A–D\)/, /bad\.jsonl:6: the workspace .*no-such-folder is not a folder/, /bad\.jsonl:7: each line must be a JSON object/]) assert.match(r.stderr, line);
    assert.doesNotMatch(r.stderr, /bad\.jsonl:1:/);
    assert.equal(suite.server.chatRequests().length, 0);
    assert.ok(!existsSync(out), 'nothing written');

    const usage = await run(['eval', '--config', config, '--dataset', dataset]);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /massgen eval needs --out DIR/);
    const shard = await run(['eval', '--config', config, '--dataset', dataset, '--out', out, '--shard', '3/2']);
    assert.equal(shard.code, 1);
    assert.match(shard.stderr, /--shard 3\/2: K must be between 1 and N/);
  });

  it('Ctrl-C stops the runs, keeps the finished items (exit 4), and --resume runs only the rest', async () => {
    let slowItem: string | undefined = 'q3';
    suite.server = await startFakeOpenAI(membersScript({ slowItem: () => slowItem }));
    const config = writeTeam(suite.server.baseUrl, ['m1', 'm2', 'm3']);
    const dataset = writeDataset('three-interrupted.jsonl', ITEMS.map((i) => i.line));
    const out = join(work, 'eval-interrupted');
    const results = join(out, 'results.jsonl');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out, '--concurrency', '1'], {
      onSpawn: ({ kill }) => {
        const poll = setInterval(() => {
          if (existsSync(results) && readFileSync(results, 'utf8').trim().split('\n').length >= 8 && suite.server!.chatRequests().some((q) => textOf(q.body.messages[1] ?? { role: 'user' }).includes('kilometre'))) {
            clearInterval(poll);
            kill('SIGINT');
          }
        }, 20);
      },
    });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /Interrupted/);
    const kept = readJsonl(results);
    assert.deepEqual([...new Set(kept.map((x) => x.item))], ['q1', 'q2'], 'the finished items are kept, the cut run is not');
    assert.equal(kept.length, 8);
    const s = summaryOf(out);
    assert.deepEqual([s.complete, s.pairs.done, s.pairs.expected, s.systems.team.correct, s.systems.team.n], [false, 8, 12, 2, 2]);
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /Partial: 8 of 12/);
    const cut = suite.server.chatRequests().filter((q) => textOf(q.body.messages[1] ?? { role: 'user' }).includes('kilometre'));
    assert.ok(cut.length > 0);
    for (const q of cut) assert.equal(await q.outcome, 'client_closed', 'the request in flight was aborted');

    slowItem = undefined;
    const before = suite.server.chatRequests().length;
    const resumed = await run(['eval', '--config', config, '--dataset', dataset, '--out', out, '--resume']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(suite.server.chatRequests().length - before, 9, 'only q3 ran: 6 team calls and 3 members alone');
    const done = summaryOf(out);
    assert.deepEqual([done.complete, done.systems.team.correct, done.systems.team.n, done.oracle.correct], [true, 3, 3, 3]);
  });

  it('an unreachable server: each run is an error row, exit 2, and --resume runs them again', async () => {
    suite.server = await startFakeOpenAI(membersScript());
    const url = suite.server.baseUrl;
    await suite.server.close();
    suite.server = undefined;
    const config = writeTeam(url, ['m1']);
    const dataset = writeDataset('one.jsonl', [ITEMS[0].line]);
    const out = join(work, 'eval-down');
    const r = await run(['eval', '--config', config, '--dataset', dataset, '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    const rows = readJsonl(join(out, 'results.jsonl'));
    assert.equal(rows.length, 2);
    assert.ok(rows.every((x) => typeof x.error === 'string' && x.correct === false));
    assert.ok(rows.some((x) => String(x.error).includes(new URL(url).host)), 'the error names the server');
    assert.match(r.stderr, /--resume runs them again/);
    assert.equal(summaryOf(out).systems.team.errors, 1);
  });
});
