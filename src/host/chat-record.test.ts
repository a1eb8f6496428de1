import assert from 'node:assert/strict';
import { reduceEvents } from '../core/engine/run-state';
import { fullRun, tieRun } from '../../test/webview/scenarios';
import { englishL10n } from '../../test/fakes/vscode-lm';
import { agentsThatRan, explainVote } from './chat-record';

const english = { t: englishL10n };
/** Marks each translated text, to see that every sentence went through l10n.t. */
const marked = { t: (message: string, ...args: Array<string | number | boolean>) => `«${englishL10n(message, ...args)}»` };

describe('chat: answers from a run\'s record', () => {
  it('Explain the vote: the winner and how it won, every vote with its reason, stale ones struck out, failures in words', async () => {
    const state = reduceEvents(await fullRun());
    const text = explainVote(state, english);
    assert.match(text, /^\*\*agent2\.2\*\* \(pragmatic-engineer's answer\) won: 4 votes\./);
    assert.equal((text.match(/^- /gm) ?? []).length, state.votes.length + 1, 'one line per vote, and the failed agent');
    assert.match(text, /~~fast-drafter \(agent5\) → \*\*agent1\.1\*\*: .*~~ \(no longer counted: /);
    assert.match(text, /agentK\.M is agentK's M-th answer/);
    assert.match(text, /security-auditor \(agent4\) failed: /);
  });

  it('Explain the vote names a tie broken by agent order', async () => {
    assert.match(explainVote(reduceEvents(await tieRun()), english), /won: the votes tied \(1 each\), so agent order decided\./);
  });

  it('Which agents ran: models, providers and personas as they ran', async () => {
    const state = reduceEvents(await fullRun());
    const text = agentsThatRan(state, [{ id: 'careful-reviewer', provider: 'openai', model: 'gpt-4.1', persona: 'You are a careful reviewer.' }], english);
    assert.match(text, /^5 agents ran:/);
    assert.match(text, /- \*\*careful-reviewer \(agent1\)\*\*: model-careful-reviewer via openai, persona: _You are a careful reviewer\._/);
    assert.match(text, /security-auditor \(agent4\)\*\*: .* — failed/);
  });

  it('every sentence goes through l10n.t, the names and counts as its arguments', async () => {
    const state = reduceEvents(await fullRun());
    const explained = explainVote(state, marked);
    assert.match(explained, /^«\*\*agent2\.2\*\* \(pragmatic-engineer's answer\) won: «4 votes»\.»$/m);
    assert.match(explained, /^«The votes, in the order they were cast/m);
    assert.match(explained, /~~ «\(no longer counted: /);
    assert.match(explained, /^- «security-auditor \(agent4\) failed: /m);
    const ran = agentsThatRan(state, [{ id: 'careful-reviewer', provider: 'openai', model: 'gpt-4.1', persona: 'Careful.' }], marked);
    assert.match(ran, /^«5 agents ran:»/);
    assert.match(ran, /- \*\*careful-reviewer \(agent1\)\*\*: «model-careful-reviewer via openai», «persona: _Careful\._»/);
    assert.match(ran, /security-auditor \(agent4\)\*\*: «.* via .*» — «failed»/);
  });

  it('one agent reads in the singular', async () => {
    const state = reduceEvents(await fullRun());
    const one = { ...state, agents: state.agents.slice(0, 1) };
    assert.match(agentsThatRan(one, undefined, english), /^1 agent ran:/);
  });
});
