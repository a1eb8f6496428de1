import assert from 'node:assert/strict';
import { parseConfigText } from './load';
import { ConfigError } from './report';

const agent = (id: string) => `  - id: ${id}\n    backend: { type: chatcompletion, model: m, base_url: "http://127.0.0.1:1/v1" }\n`;
const TEAM = `agents:\n${['cheap-a', 'cheap-b', 'strong-c', 'strong-d'].map(agent).join('')}`;
// The team takes lines 1–9; `orchestrator:` is line 10, the escalation block starts at line 11.
const load = (escalation: string) => parseConfigText(`${TEAM}orchestrator:\n  escalation:\n${escalation}`, 'team.yaml', {}, { requireKeys: false });

function problems(escalation: string): string {
  try {
    load(escalation);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  assert.fail('expected a ConfigError');
}

describe('config: orchestrator.escalation', () => {
  it('is off by default', () => {
    const { config } = parseConfigText(TEAM, 'team.yaml', {}, { requireKeys: false });
    assert.equal(config.orchestrator.escalation, undefined);
  });

  it('reads stages and min_agreeing', () => {
    const { config, warnings } = load('    stages: [[cheap-a, cheap-b], [strong-c], [strong-d]]\n    min_agreeing: 2\n');
    assert.deepEqual(config.orchestrator.escalation, { stages: [['cheap-a', 'cheap-b'], ['strong-c'], ['strong-d']], minAgreeing: 2 });
    assert.deepEqual(warnings, []);
  });

  it('start: K makes the first K agents in config order stage 1 and the rest stage 2; min_agreeing defaults to 1', () => {
    const { config } = load('    start: 2\n');
    assert.deepEqual(config.orchestrator.escalation, { stages: [['cheap-a', 'cheap-b'], ['strong-c', 'strong-d']], minAgreeing: 1 });
  });

  it('puts agents the stages leave out in a last stage of their own, in config order, and says so', () => {
    const { config, warnings } = load('    stages: [[strong-c, cheap-a]]\n');
    assert.deepEqual(config.orchestrator.escalation?.stages, [['strong-c', 'cheap-a'], ['cheap-b', 'strong-d']]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /does not list cheap-b, strong-d: they join in a last stage of their own \(stage 2\)/);
    assert.equal(warnings[0].line, 12);
  });

  it('names an unknown id at its line, with the id it most likely meant', () => {
    assert.match(problems('    stages:\n      - [cheap-a, cheap-bb]\n      - [strong-c]\n'), /team\.yaml:13: orchestrator\.escalation\.stages\[0\]\[1\]: no agent has id "cheap-bb" \(did you mean cheap-b\?\)/);
    assert.doesNotMatch(problems('    stages: [[cheap-a], [zzz]]\n'), /did you mean/);
  });

  it('refuses an agent in two stages, both stages and start, neither, and a stage-less team', () => {
    assert.match(problems('    stages:\n      - [cheap-a]\n      - [cheap-a, strong-c]\n'), /team\.yaml:14: .*stages\[1\]\[0\]: agent "cheap-a" is already in orchestrator\.escalation\.stages\[0\]\[0\]/);
    assert.match(problems('    stages: [[cheap-a], [strong-c]]\n    start: 1\n'), /team\.yaml:11: .*either stages: .* or start: K .*not both/);
    assert.match(problems('    min_agreeing: 2\n'), /team\.yaml:11: .*either stages: .*one of them/);
    assert.match(problems('    stages: [[cheap-a, cheap-b, strong-c, strong-d]]\n'), /nothing to escalate to/);
    assert.match(problems('    start: 4\n'), /team\.yaml:12: orchestrator\.escalation\.start: 4 leaves no agent for a later stage \(the team has 4\); use at most 3/);
    assert.match(problems('    stages:\n      - [cheap-a]\n      - []\n      - [cheap-bb]\n'), /team\.yaml:14: orchestrator\.escalation\.stages\[1\] is empty: list the ids of the agents that join at stage 2\n.*team\.yaml:15: .*"cheap-bb" \(did you mean cheap-b\?\)/);
  });

  it('warns when min_agreeing is more than stage 1 can reach, and about unknown keys', () => {
    const { warnings } = load('    start: 2\n    min_agreeing: 3\n    min_agree: 2\n');
    assert.deepEqual(warnings.map((w) => [w.line, w.message.replace(/ \(.*/, '')]), [
      [13, 'orchestrator.escalation.min_agreeing: 3 is more than stage 1\'s 2 agent(s), so stage 1 never ends the run alone'],
      [14, 'unknown key orchestrator.escalation.min_agree, ignored'],
    ]);
  });
});
