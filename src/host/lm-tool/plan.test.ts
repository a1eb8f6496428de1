import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../core/config/load';
import type { AgentInfo, RunEvent, RunEventBody } from '../../core/engine/events';
import { reduceEvents } from '../../core/engine/run-state';
import { LM_TOOL_NAME } from '../ids';
import { escapeMarkdown, planInvocation, type MassGenToolInput } from './plan';
import { resultTexts } from './result';
import { englishL10n } from '../../../test/fakes/vscode-lm';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const team = (yaml: string) => parseConfigText(yaml, 'team.yaml', { OPENAI_API_KEY: 'sk-test' }, { host: 'vscode' }).config;
const ask: MassGenToolInput = { question: 'Which sort is stable?' };
const english = { t: englishL10n };

describe('lm-tool: package.json contributes the tool the shell registers', () => {
  it('massgen_run with the input MassGenToolInput reads', () => {
    const tools = manifest.contributes.languageModelTools as { name: string; inputSchema: { properties: Record<string, unknown>; required: string[] } }[];
    assert.deepEqual(tools.map((t) => t.name), [LM_TOOL_NAME]);
    const input: Required<MassGenToolInput> = { question: '', workspace: false };
    assert.deepEqual(Object.keys(tools[0].inputSchema.properties).sort(), Object.keys(input).sort());
    assert.deepEqual(tools[0].inputSchema.required, ['question']);
  });
});

describe('lm-tool: what the confirmation says', () => {
  it('every line of it goes through l10n.t, the values as its arguments', () => {
    const marked = { t: (message: string, ...args: Array<string | number | boolean>) => `«${englishL10n(message, ...args)}»` };
    const plan = planInvocation(team('agents:\n  - id: gpt\n    backend: { type: openai, model: gpt-4.1-mini }\norchestrator:\n  budget: { max_cost_usd: 0.5 }\n'), ask, { name: 'app' }, true, marked);
    const lines = plan.message.split('\n\n');
    assert.equal(lines.length, 5, plan.message);
    for (const line of lines) assert.match(line, /^«.*»$/);
    assert.ok(lines[0].startsWith('«**1 agent:** gpt \\(openai gpt-4.1-mini\\)'), lines[0]);
    assert.match(plan.message, /«Paid models \(gpt-4\.1-mini\): «about \$[\d.]+–\$[\d.]+»\.»/);
  });

  it('local servers without a price: nothing to confirm', () => {
    const plan = planInvocation(team('agents:\n  - id: local\n    backend: { type: chatcompletion, model: llama3.2, base_url: "http://localhost:11434/v1" }\n'), ask, undefined, false, english);
    assert.deepEqual(plan.team, ['local \\(chatcompletion llama3.2\\)']);
    assert.deepEqual(plan.spending, []);
    assert.equal(plan.confirm, false);
  });

  it('priced models: an estimated cost range, and the budget when one is set', () => {
    const plan = planInvocation(team('agents:\n  - id: gpt\n    backend: { type: openai, model: gpt-4.1-mini }\norchestrator:\n  budget: { max_cost_usd: 0.5 }\n'), ask, undefined, false, english);
    assert.equal(plan.confirm, true);
    assert.match(plan.spending[0], /^Paid models \(gpt-4\.1-mini\): about \$[\d.]+–\$[\d.]+\.$/);
    assert.match(plan.spending[1], /stops before it would cost more than \$0\.50/);
  });

  it('an API without a known price still spends money', () => {
    const plan = planInvocation(team('agents:\n  - id: x\n    backend: { type: openai, model: my-finetune }\n'), ask, undefined, false, english);
    assert.equal(plan.confirm, true);
    assert.match(plan.spending[0], /cost unknown/);
  });

  it('VS Code chat models: the request count, billed by the user\'s plan', () => {
    const plan = planInvocation(team('agents:\n  - id: a\n    backend: { type: vscode-lm, model: copilot/gpt-4o }\n  - id: b\n    backend: { type: vscode-lm, model: copilot/gpt-4o }\n'), ask, undefined, false, english);
    assert.equal(plan.confirm, true);
    assert.match(plan.spending[0], /^VS Code chat models \(copilot\/gpt-4o\): \d+–\d+ requests in all, billed by your plan/);
  });

  it('a workspace run asks first even when free, says the folder is not changed, and mentions commands', () => {
    const local = team('agents:\n  - id: local\n    backend: { type: ollama, model: llama3.2 }\n');
    const plan = planInvocation(local, { ...ask, workspace: true }, { name: 'my_app' }, true, english);
    assert.equal(plan.confirm, true);
    assert.match(plan.message, /own copy of \*\*my\\_app\*\* and may run commands there \(each asks your approval\)\. Your folder is not changed: .* this tool never applies it\./);
    assert.doesNotMatch(planInvocation(local, { ...ask, workspace: true }, { name: 'app' }, false, english).message, /commands/);
  });

  it('the question is shown as text, never as markdown', () => {
    assert.equal(escapeMarkdown('[click](command:x) *bold*'), '\\[click\\]\\(command:x\\) \\*bold\\*');
    const plan = planInvocation(team('agents:\n  - id: a\n    backend: { type: ollama, model: m }\n'), { question: '[click](command:x)' }, undefined, false, english);
    assert.match(plan.message, /\*\*Question:\*\* \\\[click\\\]\\\(command:x\\\)$/);
  });
});

describe('lm-tool: the result the calling model reads', () => {
  const AGENTS: AgentInfo[] = [
    { id: 'a', label: 'agent1', model: 'm-a', provider: 'p', priced: false },
    { id: 'b', label: 'agent2', model: 'm-b', provider: 'p', priced: false },
  ];
  const bodies: RunEventBody[] = [
    { type: 'run_started', runId: 'r', question: 'Q', agents: AGENTS, startedAt: '2025-01-01T00:00:00.000Z', finalAnswerMode: 'as_is' },
    { type: 'answer_added', agentId: 'a', label: 'agent1.1', version: 1, content: 'A', boardRevision: 1 },
    { type: 'answer_added', agentId: 'b', label: 'agent2.1', version: 1, content: 'B', boardRevision: 2 },
    { type: 'vote_cast', vote: { voterId: 'a', targetId: 'b', targetLabel: 'agent2.1', reason: 'r', seenRevision: 2 } },
    { type: 'vote_cast', vote: { voterId: 'b', targetId: 'b', targetLabel: 'agent2.1', reason: 'r', seenRevision: 2 } },
  ];
  const state = reduceEvents(bodies.map((b, i) => ({ t: i * 1000, ...b, seq: i + 1 }) as RunEvent));

  it('the answer, the votes per answer and where the run is', () => {
    const [answer, summary, ...rest] = resultTexts({ reason: 'consensus', winnerId: 'b', winnerLabel: 'agent2.1', finalAnswer: 'B', durationMs: 1500 }, state, 'run-1');
    assert.equal(answer, "MassGen's answer (agent2.1, m-b; ended by consensus):\n\nB");
    assert.match(summary, /^Votes per answer:\n- agent1\.1 \(m-a\): 0 vote\(s\)\n- agent2\.1 \(m-b\): 2 vote\(s\) from agent1, agent2\n/);
    assert.match(summary, /vote viewer \(command massgen\.showVoteViewer, run run-1\)/);
    assert.deepEqual(rest, []);
  });

  it('a workspace run: the change, not applied, with its patch', () => {
    const change = { version: 'agent2.1', files: [{ path: 'a.py', status: 'modified' as const, added: 1, removed: 1 }], patch: '--- a/a.py\n+++ b/a.py\n', fileChanges: [] };
    const texts = resultTexts({ reason: 'consensus', winnerId: 'b', winnerLabel: 'agent2.1', finalAnswer: 'B', durationMs: 1, change }, state, 'run-1');
    assert.match(texts[2], /^The winner's change \(1 file\(s\): a\.py \(modified\)\) is NOT applied: the user reviews and applies it from the vote viewer/);
    assert.match(texts[2], /\n--- a\/a\.py\n\+\+\+ b\/a\.py\n$/);
  });

  it('no answer: why', () => {
    const [answer] = resultTexts({ reason: 'all_failed', winnerId: null, winnerLabel: null, finalAnswer: null, durationMs: 1, error: 'Every agent failed.' }, state, 'run-1');
    assert.equal(answer, 'MassGen produced no answer (ended by all_failed). Every agent failed.');
  });
});
