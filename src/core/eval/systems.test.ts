import assert from 'node:assert/strict';
import type { AgentConfig, MassGenConfig } from '../config/types';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS } from '../config/types';
import { evalSystems, escalationOf, providerKey, providerKeys, strongestGuess, SystemsError } from './systems';

const agent = (id: string, model: string, baseUrl?: string, output?: number): AgentConfig => ({
  id,
  backend: { type: 'openai', family: 'openai-compatible', model, baseUrl, ...(output !== undefined ? { pricing: { inputPerMillion: 1, cachedInputPerMillion: 1, outputPerMillion: output } } : {}) },
});
const config = (agents: AgentConfig[]): MassGenConfig => ({ agents, orchestrator: { ...DEFAULT_ORCHESTRATOR }, timeouts: { ...DEFAULT_TIMEOUTS }, source: 't' });

describe('eval systems', () => {
  it('the team, then each agent alone, then the optional baseline', () => {
    const c = config([agent('a', 'm1', 'http://x/v1', 1), agent('b', 'm2', 'http://x/v1', 8), agent('c', 'm3', 'http://y/v1', 2)]);
    assert.deepEqual(evalSystems(c).map((s) => `${s.kind}:${s.id}`), ['team:team', 'member:a', 'member:b', 'member:c']);
    const sc = evalSystems(c, { kind: 'self-consistency' }).at(-1);
    assert.deepEqual(sc, { id: 'self-consistency', kind: 'self-consistency', agent: 'b', model: 'm2', samples: 3 }, 'the priciest model, as many samples as agents');
    assert.deepEqual(evalSystems(c, { kind: 'self-consistency', agent: 'c', samples: 5 }).at(-1), { id: 'self-consistency', kind: 'self-consistency', agent: 'c', model: 'm3', samples: 5 });
    assert.throws(() => evalSystems(c, { kind: 'self-consistency', agent: 'zz' }), /--baseline-agent 'zz' is not an agent of the config \(a, b, c\)/);
  });

  it('team-escalating: with the config\'s stages, or --escalation K or by ids; the team stays all agents', () => {
    const c = config([agent('a', 'm1'), agent('b', 'm2'), agent('strong', 'm3')]);
    c.orchestrator.escalation = { stages: [['a', 'b'], ['strong']], minAgreeing: 2 };
    assert.deepEqual(evalSystems(c).slice(0, 2), [
      { id: 'team', kind: 'team', agents: ['a', 'b', 'strong'] },
      { id: 'team-escalating', kind: 'team-escalating', agents: ['a', 'b', 'strong'], stages: [['a', 'b'], ['strong']], minAgreeing: 2 },
    ]);
    const plain = config([agent('a', 'm1'), agent('b', 'm2'), agent('strong', 'm3')]);
    assert.ok(!evalSystems(plain).some((s) => s.kind === 'team-escalating'), 'none without stages');
    assert.deepEqual(escalationOf({ start: 1 }, plain), { stages: [['a'], ['b', 'strong']], minAgreeing: 1 });
    assert.deepEqual(escalationOf({ stages: [['b', 'a'], ['strong']] }, plain).stages, [['b', 'a'], ['strong']]);
    assert.deepEqual(escalationOf({ stages: [['a']] }, plain).stages, [['a'], ['b', 'strong']], 'agents not listed join a last stage');
    assert.deepEqual(escalationOf({ start: 2 }, c), { stages: [['a', 'b'], ['strong']], minAgreeing: 2 }, 'the flag replaces the config\'s stages, not its min_agreeing');
    const [, stepped] = evalSystems(c, undefined, { start: 1 });
    assert.deepEqual(stepped, { id: 'team-escalating', kind: 'team-escalating', agents: ['a', 'b', 'strong'], stages: [['a'], ['b', 'strong']], minAgreeing: 2 });
  });

  it('--escalation mistakes are named, with the id an unknown one most likely meant', () => {
    const c = config([agent('cheap-a', 'm1'), agent('cheap-b', 'm2'), agent('strong', 'm3')]);
    const fails = (option: Parameters<typeof escalationOf>[0], message: RegExp) => assert.throws(() => evalSystems(c, undefined, option), (err: Error) => err instanceof SystemsError && message.test(err.message));
    fails({ stages: [['cheap-a', 'cheap-b'], ['strnog']] }, /--escalation: no agent has id 'strnog' \(did you mean strong\?\); the team: cheap-a, cheap-b, strong/);
    fails({ stages: [['zzz']] }, /no agent has id 'zzz'; the team/);
    fails({ stages: [['cheap-a'], ['cheap-a', 'strong']] }, /agent 'cheap-a' is in more than one stage/);
    fails({ stages: [['cheap-a', 'cheap-b', 'strong']] }, /one stage holds the whole team/);
    fails({ start: 3 }, /--escalation 3: .*K must be between 1 and 2 \(the team has 3\)/);
  });

  it('agent ids that would collide with the eval\'s own names are refused', () => {
    assert.throws(() => evalSystems(config([agent('team', 'm')])), (err: Error) => err instanceof SystemsError && /agent id 'team' names a system of the eval's own/.test(err.message));
    assert.throws(() => evalSystems(config([agent('oracle', 'm')])), SystemsError);
    assert.throws(() => evalSystems(config([agent('team-escalating', 'm')])), SystemsError);
  });

  it('without prices the first agent is the baseline\'s; a single agent still gets two samples', () => {
    assert.equal(strongestGuess([agent('a', 'local-1', 'http://localhost:1/v1'), agent('b', 'local-2', 'http://localhost:1/v1')]).id, 'a');
    assert.equal((evalSystems(config([agent('a', 'x')]), { kind: 'self-consistency' }).at(-1) as { samples: number }).samples, 2);
  });

  it('provider keys: the endpoint without credentials or query; the team uses every distinct one', () => {
    assert.equal(providerKey(agent('a', 'm', 'https://user:sk-123@api.example.com/v1/?key=sk-456')), 'openai-compatible https://api.example.com/v1');
    assert.equal(providerKey(agent('a', 'm')), 'openai-compatible (default endpoint)');
    const c = config([agent('a', 'm1', 'http://x/v1'), agent('b', 'm2', 'http://x/v1/'), agent('c', 'm3', 'http://y/v1')]);
    const [team, a] = evalSystems(c);
    assert.deepEqual(providerKeys(team, c), ['openai-compatible http://x/v1', 'openai-compatible http://y/v1']);
    assert.deepEqual(providerKeys(a, c), ['openai-compatible http://x/v1']);
  });
});
