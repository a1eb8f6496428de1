import assert from 'node:assert/strict';
import type { AgentToolbox } from '../engine/ports';
import { readingTools } from './reading-tools';

describe('a coding agent\'s reading tools', () => {
  it('are the file toolbox\'s read-only tools; a write through them is refused without reaching the toolbox', async () => {
    const executed: string[] = [];
    const files: AgentToolbox = {
      tools: ['read_file', 'write_file', 'list_directory', 'edit_file', 'search_files'].map((name) => ({ name, description: name, parameters: { type: 'object' } })),
      execute: async (call) => {
        executed.push(call.name);
        return { ok: true, content: 'done' };
      },
    };
    const reading = readingTools(files);
    assert.deepEqual(reading.tools.map((t) => t.name), ['read_file', 'list_directory', 'search_files']);
    const signal = new AbortController().signal;
    assert.deepEqual(await reading.execute({ id: '1', name: 'read_file', arguments: '{}' }, signal), { ok: true, content: 'done' });
    const write = await reading.execute({ id: '2', name: 'write_file', arguments: '{}' }, signal);
    assert.equal(write.ok, false);
    assert.match(write.content, /not served here: edit files in your own folder with your own tools/);
    assert.deepEqual(executed, ['read_file']);
  });
});
