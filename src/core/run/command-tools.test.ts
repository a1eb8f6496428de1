import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentConfig } from '../config/types';
import { EXECUTE_COMMAND } from '../sandbox';
import { openCommandTools, type CommandApprovalRequest } from './command-tools';
import type { WorkArea } from './work-area';

describe('openCommandTools: the approval request names the agent', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'massgen-cmd-run-'));
    for (const label of ['agent1', 'agent2']) mkdirSync(join(base, label));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('carries the agent\u2019s id and label with the command and its copy', async () => {
    const agents = [{ id: 'gpt' }, { id: 'claude' }].map((a) => ({ ...a, backend: { type: 'openai', model: 'm' } }) as unknown as AgentConfig);
    const asked: CommandApprovalRequest[] = [];
    const area = { rootOf: (label: string) => join(base, label) } as unknown as WorkArea;
    const tools = await openCommandTools(agents, { everyAgent: true, network: false, askEveryCommand: true, approve: async (r) => (asked.push(r), false) }, area);
    const toolbox = tools.toolboxFor(1, 'agent2')!;
    const r = await toolbox.execute({ id: 'c1', name: EXECUTE_COMMAND, arguments: JSON.stringify({ command: 'echo hi' }) }, new AbortController().signal);
    await toolbox.close?.();
    assert.equal(r.ok, false, 'denied');
    assert.equal(asked.length, 1);
    assert.deepEqual({ ...asked[0], reason: undefined }, { command: 'echo hi', cwd: join(base, 'agent2'), reason: undefined, agentId: 'claude', label: 'agent2' });
  });
});
