// The `massgen` CLI with real models on a real inference server: SmolLM2-135M-Instruct and Qwen2.5-Coder-0.5B-Instruct
// on llama-server (all from the peers cache, `npm run real-model:setup`), through the OpenAI-compatible API and the
// Anthropic Messages API. A recording proxy sits between the CLI and the server: it shows what the engine sent (its
// corrections) and what the server reported (usage), and for the model output a 135M model cannot be made to produce
// on demand it rewrites one reply, everything else staying the server's. SmolLM2 never calls a tool on its own: its
// teams show the engine's corrections and bounds; Qwen2.5-Coder is trained for tool calls: its teams decide.
//
// Times here are failure guards only: each run is bounded by the CLI's own orchestrator timeout in its config, and
// the tests' timeouts leave room above that on a loaded 2-core machine.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ENFORCEMENT_MESSAGE, TEXT_TOOL_PROTOCOL } from '../../src/core/engine/prompts';
import { cliSuite, readJsonl, runCli, type CliRun } from '../helpers/cli';
import { GREEDY_SAMPLING, startLlamaServer, type LlamaServer } from '../helpers/llama-server';
import { assertNamedEnd } from './lib/outcome';
import { asText, asToolCall, hasToolCall, replyText, reportedUsage, startRecordingProxy, totalUsage, type ProxyExchange, type ProxyOptions, type ReportedUsage } from './lib/recording-proxy';
import { agentOf, writeTeamConfig, type TeamOnServer } from './lib/team-config';
import type { StatusJson } from '../../src/core/status/status-file';
import type { VoteRecord } from '../../src/core/engine/events';

const work = mkdtempSync(join(tmpdir(), 'massgen-real-model-'));

/** The CLI's bound on each run (orchestrator_timeout_seconds): far above a run's cost, a guard against a hang. */
const RUN_BOUND_SECONDS = 300;
/** Past its bound plus this, the CLI is killed and the test fails: it did not stop itself. */
const CLI_GRACE_MS = 60_000;
/** The test's own guard, above the CLI's. */
const TEST_GUARD_MS = RUN_BOUND_SECONDS * 1000 + 2 * CLI_GRACE_MS;

const QUESTION = 'What is the capital of France? Answer in one short sentence.';

interface TeamRun {
  run: CliRun;
  logDir: string;
  status: StatusJson;
  /** What passed through the proxy, in arrival order. */
  exchanges: ProxyExchange[];
  events: Record<string, unknown>[];
}

const suite = cliSuite(work);

type TeamArgs = [name: string, team: Omit<TeamOnServer, 'origin' | 'timeoutSeconds'>, question: string, proxyOptions?: ProxyOptions];

/** Runs the team on the server through a fresh recording proxy and checks the ending every run must have. */
async function runTeamOn(server: LlamaServer, ...[name, team, question, proxyOptions = {}]: TeamArgs): Promise<TeamRun> {
  const proxy = await startRecordingProxy(server.origin, proxyOptions);
  try {
    const config = writeTeamConfig(work, name, { ...team, origin: proxy.origin, timeoutSeconds: RUN_BOUND_SECONDS });
    const logDir = join(work, `logs-${name}`);
    const run = await runCli(suite.cli, ['run', '--config', config, '--log-dir', logDir, question], { cwd: work, guardMs: RUN_BOUND_SECONDS * 1000 + CLI_GRACE_MS });
    assert.notEqual(run.code, null, `the CLI did not end within its own bound of ${RUN_BOUND_SECONDS} s and was killed:\n${run.stderr}`);
    const status = assertNamedEnd(run, logDir);
    return { run, logDir, status, exchanges: proxy.exchanges(), events: readJsonl(join(logDir, 'events.jsonl')) };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- llama-server log (end)\n${server.log().slice(-1500)}`);
  } finally {
    await proxy.close();
  }
}

const apiName = (api: TeamOnServer['api']) => (api === 'openai' ? 'OpenAI-compatible (chatcompletion)' : 'Anthropic Messages (claude)');

/**
 * status.json's usage is the server's: every reply the CLI got whole was counted once, with the usage the server
 * reported in it, in order per agent; a call cut short adds only an estimate, marked as such, and a reply the server
 * failed (an error, no usage) adds no counted usage. A reply the proxy wrote out whole may still have been cut
 * short in the CLI (the run was decided while it arrived, and the call was aborted): it is then one of the estimates.
 */
function assertUsageIsTheServers(result: TeamRun): void {
  const { status, exchanges, events } = result;
  const whole = exchanges.filter((e) => e.outcome === 'completed');
  assert.ok(whole.length > 0, 'no reply reached the CLI');
  for (const e of whole) assert.ok(e.usage, `reply ${e.index} (HTTP ${e.status}) carried no usage: ${JSON.stringify(e.serverEvents.slice(-2))}\n${result.run.stderr}`);
  const usageEvents = events.filter((e) => e.type === 'usage') as unknown as { agentId: string; usage: ReportedUsage & { estimated?: boolean } }[];
  for (const id of Object.keys(status.agents)) {
    const counted = usageEvents.filter((u) => u.agentId === id && !u.usage.estimated).map(({ usage: { estimated: _e, ...u } }) => u);
    const mine = exchanges.filter((e) => agentOf(e.request) === id);
    const replies = mine.filter((e) => e.outcome === 'completed').map((e) => e.usage);
    // The counted usage is the whole replies' in order, some of them left out: those the CLI cut short.
    let next = 0;
    for (const usage of replies) if (next < counted.length && isDeepStrictEqual(counted[next], usage)) next++;
    assert.equal(next, counted.length, `agent ${id}: the usage counted is not the usage the server reported, in order: counted ${JSON.stringify(counted)}, reported ${JSON.stringify(replies)}`);
    const estimates = usageEvents.filter((u) => u.agentId === id && u.usage.estimated).length;
    const leftOut = replies.length - counted.length;
    assert.ok(leftOut <= estimates, `agent ${id}: ${leftOut} whole repl(ies) not counted, but only ${estimates} estimate(s)`);
    const cut = mine.filter((e) => e.outcome !== 'completed').length;
    assert.ok(estimates <= cut + leftOut, `agent ${id}: ${estimates} estimate(s) for ${cut} call(s) cut short or failed and ${leftOut} left out`);
  }
  const estimated = usageEvents.filter((u) => u.usage.estimated);
  const sum = (list: typeof usageEvents) => ({
    input_tokens: list.reduce((n, u) => n + u.usage.inputTokens, 0),
    cached_input_tokens: list.reduce((n, u) => n + u.usage.cachedInputTokens, 0),
    output_tokens: list.reduce((n, u) => n + u.usage.outputTokens, 0),
    calls: list.length,
    estimated: list.some((u) => u.usage.estimated),
  });
  const shown = (u: StatusJson['usage']) => ({ input_tokens: u.input_tokens, cached_input_tokens: u.cached_input_tokens, output_tokens: u.output_tokens, calls: u.calls, estimated: u.estimated });
  assert.deepEqual(shown(status.usage), sum(usageEvents));
  for (const [id, agent] of Object.entries(status.agents)) assert.deepEqual(shown(agent.usage), sum(usageEvents.filter((u) => u.agentId === id)), `agent ${id}`);
  // Without a call cut short, that is exactly the server's total.
  if (estimated.length === 0) {
    const total = totalUsage(exchanges);
    assert.deepEqual(shown(status.usage), { input_tokens: total.inputTokens, cached_input_tokens: total.cachedInputTokens, output_tokens: total.outputTokens, calls: total.calls, estimated: false });
  }
}

describe('massgen CLI on a real model (SmolLM2-135M on llama-server)', function () {
  this.timeout(TEST_GUARD_MS);
  let server: LlamaServer;

  before(async () => {
    server = await startLlamaServer({ extraArgs: GREEDY_SAMPLING });
  });
  after(async () => {
    await server?.close();
  });

  const runTeam = (...args: TeamArgs) => runTeamOn(server, ...args);

  for (const api of ['openai', 'anthropic'] as const) {
    describe(`a 3-agent team through the ${apiName(api)} API`, () => {
      let result: TeamRun;
      before(async () => {
        result = await runTeam(`team-${api}`, { api }, QUESTION);
      });

      it('ends within its bound with a named reason, and a winner or a one-line error', () => {
        // assertNamedEnd ran in runTeam; what is left is that every agent took part through the server.
        const { status, exchanges } = result;
        const paths = new Set(exchanges.map((e) => e.path));
        assert.deepEqual([...paths], [api === 'openai' ? '/v1/chat/completions' : '/v1/messages']);
        assert.deepEqual(new Set(exchanges.map((e) => agentOf(e.request))), new Set(['a', 'b', 'c']));
        assert.equal(Object.keys(status.agents).length, 3);
      });

      it("status.json's usage is what the server reported", () => {
        assertUsageIsTheServers(result);
      });
    });
  }
  describe('hostile model output: the engine corrects it and the run still ends', () => {
    /** The requests one agent sent, in order. */
    const requestsOf = (exchanges: ProxyExchange[], id: string) => exchanges.filter((e) => agentOf(e.request) === id).map((e) => e.request);
    const messagesOf = (request: Record<string, unknown>) => request.messages as { role: string; content: unknown; tool_call_id?: string }[];

    /** How many times the engine had told the agent to call a tool, by the time of this request. */
    const enforcements = (request: Record<string, unknown>) => messagesOf(request).filter((m) => m.role === 'user' && String(m.content).includes(ENFORCEMENT_MESSAGE)).length;

    /** Whether `next` starts the turn over: it does not carry on from `previous` (the conversation was restored). */
    const startsOver = (previous: Record<string, unknown>, next: Record<string, unknown>) => {
      const before = messagesOf(previous);
      const after = messagesOf(next);
      return after.length < before.length || before.some((m, i) => !isDeepStrictEqual(m, after[i]));
    };

    /**
     * Turns the agent started again after one failed. A turn that failed on the protocol may be retried (`willRetry`)
     * only once the board shows the agent something new: an agent set aside while it waits never starts it.
     */
    const retriedTurns = (events: Record<string, unknown>[], id: string) => {
      let pending = false;
      let retried = 0;
      for (const e of events.filter((x) => x.agentId === id)) {
        if (e.type === 'turn_failed') pending = e.willRetry === true;
        else if (e.type === 'turn_started' && pending) {
          retried++;
          pending = false;
        }
      }
      return retried;
    };

    /**
     * Every reply without a tool call is followed by a request that carries it and tells the agent to make one,
     * except where the turn failed after its last attempt: the retried turn starts over from before it. Turns that
     * start over are counted over all the agent's replies (the last attempt may as well have been a cut call).
     */
    function assertToldToCallATool({ exchanges, events }: TeamRun, uncalled: ProxyExchange[]): void {
      for (const id of new Set(uncalled.map((e) => agentOf(e.request)!))) {
        const requests = requestsOf(exchanges, id);
        for (const reply of uncalled.filter((e) => agentOf(e.request) === id)) {
          const next = requests[requests.indexOf(reply.request) + 1];
          if (!next || startsOver(reply.request, next)) continue; // its last reply (the agent was set aside), or its turn's
          assert.equal(enforcements(next), enforcements(reply.request) + 1, `agent ${id}'s request after reply ${reply.index} does not carry the correction`);
          assert.ok(messagesOf(next).some((m) => m.role === 'assistant' && m.content === replyText(reply.sentEvents)), `agent ${id}'s reply ${reply.index} is not in its next request`);
        }
        const restarts = requests.slice(1).filter((next, i) => startsOver(requests[i], next)).length;
        assert.equal(restarts, retriedTurns(events, id), `agent ${id}: ${restarts} turn(s) started over, ${retriedTurns(events, id)} retried`);
      }
    }

    it('text cut at max_tokens: the agent is told to call a tool each time, then set aside', async () => {
      const result = await runTeam('max-tokens', { api: 'openai', agents: ['a', 'b'], maxTokens: 4 }, 'Write a long essay about the history of Paris.');
      const { exchanges, events, status } = result;
      // 4 tokens cannot hold a whole tool call: every reply is text, most of it cut off, or a call begun and cut off
      // (malformed, answered as such, or refused by the server, which cannot parse it). Nothing of ours aborts a call
      // (a connection the server breaks is retried): the run ends only when every agent has failed.
      for (const e of exchanges) assert.notEqual(e.outcome, 'incomplete', `reply ${e.index} was cut short by the CLI\n${result.run.stderr}`);
      assert.ok(exchanges.some((e) => finishReason(e) === 'length'), 'no reply was cut at max_tokens');
      const whole = exchanges.filter((e) => e.outcome === 'completed');
      assertToldToCallATool(result, whole.filter((e) => !hasToolCall(e.sentEvents)));
      for (const cutCall of whole.filter((e) => hasToolCall(e.sentEvents))) {
        const requests = requestsOf(exchanges, agentOf(cutCall.request)!);
        const next = requests[requests.indexOf(cutCall.request) + 1];
        if (next && !startsOver(cutCall.request, next)) assert.equal(messagesOf(next).at(-1)?.role, 'tool', `the cut call in reply ${cutCall.index} got no tool result`);
      }
      // From the second correction on, the text form of the calls is offered too.
      assert.ok(events.some((e) => e.type === 'correction' && String(e.message).includes(TEXT_TOOL_PROTOCOL)));
      assert.equal(status.results.end_reason, 'all_failed');
      // Each agent failed for the protocol (never a valid call), or for the server's error on its cut call.
      const failures = events.filter((e) => e.type === 'agent_failed') as unknown as { agentId: string; cause: string; error: string }[];
      assert.deepEqual(failures.map((f) => f.agentId).sort(), ['a', 'b']);
      for (const f of failures) {
        const serverFailed = exchanges.filter((e) => agentOf(e.request) === f.agentId).at(-1)?.outcome === 'failed';
        assert.ok(f.cause === 'protocol' || (f.cause === 'provider' && serverFailed), `agent ${f.agentId} failed for ${f.cause}: ${f.error}`);
      }
      assertUsageIsTheServers(result);
    });

    it('prose instead of a tool call: the agent is told to call a tool, and the run ends', async () => {
      // The model's first whole reply, if it is not prose already (empty, or a tool call), is made prose: its own
      // text, or a line of it, so that the path is exercised whatever the model does.
      let first = true;
      const result = await runTeam('prose', { api: 'openai', agents: ['a'], maxTokens: 64 }, 'Write a poem about the sea.', {
        rewrite: () =>
          first
            ? ({ events }) => {
                if (!reportedUsage(events)) return undefined; // the server failed this one: the next is the first
                first = false;
                if (replyText(events).trim() !== '' && !hasToolCall(events)) return undefined;
                return asText(events, replyText(events).trim() || 'The sea is wide and blue.');
              }
            : undefined,
      });
      const { exchanges, events } = result;
      const prose = exchanges.filter((e) => e.outcome === 'completed' && replyText(e.sentEvents).trim() !== '' && !hasToolCall(e.sentEvents));
      assert.ok(prose.length > 0, 'no reply reached the CLI as prose');
      assertToldToCallATool(result, prose);
      assert.ok(events.some((e) => e.type === 'correction' && e.agentId === 'a'));
      assertUsageIsTheServers(result);
    });

    it('malformed tool arguments: the agent gets the JSON error as the tool result', async () => {
      let done = false;
      const result = await runTeam('malformed', { api: 'openai', agents: ['a', 'b'], maxTokens: 48 }, QUESTION, {
        rewrite: (request) => {
          if (done || agentOf(request) !== 'a') return undefined;
          done = true;
          return ({ events }) => asToolCall(events, 'new_answer', '{"content": "Paris is the capital');
        },
      });
      const { exchanges, events } = result;
      const rewritten = exchanges.find((e) => e.rewritten);
      assert.ok(rewritten, 'the reply was not rewritten');
      const after = requestsOf(exchanges, 'a')[requestsOf(exchanges, 'a').indexOf(rewritten.request) + 1];
      assert.ok(after, 'agent a was never asked again after its malformed call');
      const result0 = (after.messages as { role: string; content: unknown; tool_call_id?: string }[]).find((m) => m.role === 'tool' && String(m.tool_call_id).startsWith('call_rewritten_'));
      assert.ok(result0, 'no tool result for the malformed call');
      assert.match(String(result0.content), /Arguments for new_answer are not valid JSON/);
      assert.ok(events.some((e) => e.type === 'correction' && e.agentId === 'a'));
      assertUsageIsTheServers(result);
    });

    it('a vote for an agent that does not exist: the agent is told the valid ones', async () => {
      // Agent a's first reply becomes a new_answer of the text the model wrote, so there is an answer to vote on;
      // agent b's first request is held until then, so its next one (the second attempt of its turn) shows that
      // answer, and the reply to it becomes a vote for agent7, of whom there is none: the third attempt is told.
      let answered!: () => void;
      const aAnswered = new Promise<void>((resolve) => (answered = resolve));
      let rewroteAnswer = false;
      let rewroteVote = false;
      let heldB = false;
      const team = { api: 'openai' as const, agents: ['a', 'b'], maxTokens: 48 };
      const result = await runTeam('bad-vote', team, QUESTION, {
        hold: (request) => (!heldB && agentOf(request) === 'b' ? ((heldB = true), aAnswered) : undefined),
        rewrite: (request) => {
          if (!rewroteAnswer && agentOf(request) === 'a') {
            rewroteAnswer = true;
            return ({ events }) => (answered(), asToolCall(events, 'new_answer', JSON.stringify({ content: replyText(events).trim() || 'Paris.' })));
          }
          if (!rewroteVote && agentOf(request) === 'b' && JSON.stringify(request.messages).includes('<agent1>')) {
            rewroteVote = true;
            return ({ events }) => asToolCall(events, 'vote', JSON.stringify({ agent_id: 'agent7', reason: 'best' }));
          }
          return undefined;
        },
      });
      const { exchanges, events } = result;
      assert.ok(events.some((e) => e.type === 'answer_added' && e.agentId === 'a'), 'agent a\'s rewritten answer was not accepted');
      const vote = exchanges.find((e) => e.rewritten && agentOf(e.request) === 'b');
      assert.ok(vote, 'agent b was never asked after agent a\'s answer');
      const after = requestsOf(exchanges, 'b')[requestsOf(exchanges, 'b').indexOf(vote.request) + 1];
      assert.ok(after, 'agent b was never asked again after its vote for agent7');
      const told = (after.messages as { role: string; content: unknown }[]).find((m) => m.role === 'tool' && String(m.content).includes("Invalid agent_id 'agent7'. Valid agents: agent1"));
      assert.ok(told, 'no correction naming agent7 and the valid agent');
      assert.ok(events.some((e) => e.type === 'correction' && e.agentId === 'b'));
      assert.ok(!events.some((e) => e.type === 'vote_cast' && (e.vote as { targetLabel: string }).targetLabel.startsWith('agent7')), 'a vote for agent7 was counted');
      assertUsageIsTheServers(result);
    });
  });
});

describe('massgen CLI on a tool-trained real model (Qwen2.5-Coder-0.5B on llama-server)', function () {
  this.timeout(TEST_GUARD_MS);
  let server: LlamaServer;

  before(async () => {
    server = await startLlamaServer({ model: 'qwen-coder', extraArgs: GREEDY_SAMPLING });
  });
  after(async () => {
    await server?.close();
  });

  for (const api of ['openai', 'anthropic'] as const) {
    it(`a 3-agent team through the ${apiName(api)} API decides: a winner, every counted vote for an answer its voter was shown`, async () => {
      const result = await runTeamOn(server, `qwen-${api}`, { api }, QUESTION);
      const { run, status, events } = result;
      assert.equal(run.code, 0, `the run did not decide:\n${run.stderr}`);
      const reason = String(status.results.end_reason);
      assert.ok(['consensus', 'majority', 'answer_cap'].includes(reason), `ended with ${reason}`);
      const answers = events.filter((e) => e.type === 'answer_added') as unknown as { label: string; content: string; boardRevision: number }[];
      const labels = new Set(answers.map((a) => a.label));
      const votes = (events.filter((e) => e.type === 'vote_cast') as unknown as { vote: VoteRecord }[]).map((e) => e.vote);
      assert.ok(votes.length > 0, 'no vote was cast');
      for (const v of votes) {
        const target = answers.find((a) => a.label === v.targetLabel);
        assert.ok(target, `agent ${v.voterId} voted for ${v.targetLabel}, which is no answer (${[...labels].join(', ')})`);
        assert.ok(v.seenRevision >= target.boardRevision, `agent ${v.voterId}'s vote for ${v.targetLabel} was cast before it was shown that answer`);
      }
      const winner = status.results.winner;
      assert.ok(winner, 'no winner named');
      const final = readFileSync(join(result.logDir, 'final', winner, 'answer.txt'), 'utf8');
      assert.ok(answers.some((a) => a.content.trim() === final.trim()), `the final answer is none of the answers given: ${final}`);
      assertUsageIsTheServers(result);
    });
  }
});

function finishReason(e: ProxyExchange): string | undefined {
  for (const { data } of e.serverEvents) {
    const reason = (data as { choices?: { finish_reason?: string }[] })?.choices?.[0]?.finish_reason;
    if (reason) return reason;
  }
  return undefined;
}
