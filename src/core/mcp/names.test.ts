import assert from 'node:assert/strict';
import { exposedToolName, isSideEffecting, nameMatches, nameWords, sanitizeNamePart, toolAllowed } from './names';

describe('mcp names', () => {
  it('exposes tools as mcp__<server>__<tool>, sanitized and at most 64 characters', () => {
    assert.equal(exposedToolName('files', 'read_file'), 'mcp__files__read_file');
    assert.equal(exposedToolName('everything', 'get-sum'), 'mcp__everything__get-sum');
    assert.equal(exposedToolName('my server', 'a.b/c'), 'mcp__my_server__a_b_c');
    assert.equal(sanitizeNamePart(''), '_');
    const long = exposedToolName('a-very-long-server-name', 'an_even_longer_tool_name_that_goes_on_and_on');
    assert.equal(long.length, 64);
    assert.match(long, /^mcp__a-very-long-server-name__an_even_longer_tool_.*_[0-9a-f]{8}$/);
    assert.equal(long, exposedToolName('a-very-long-server-name', 'an_even_longer_tool_name_that_goes_on_and_on'), 'stable');
    assert.notEqual(long, exposedToolName('a-very-long-server-name', 'an_even_longer_tool_name_that_goes_on_and_on_2'));
  });

  it('config names match raw or prefixed (as written or sanitized)', () => {
    assert.ok(nameMatches('read_file', 'files', 'read_file'));
    assert.ok(nameMatches('mcp__files__read_file', 'files', 'read_file'));
    assert.ok(nameMatches('mcp__my_server__x', 'my server', 'x'));
    assert.ok(!nameMatches('mcp__other__read_file', 'files', 'read_file'));
    assert.ok(!nameMatches('read', 'files', 'read_file'));
  });

  it('filters as upstream: excludes from both levels, the server allow list before the backend one', () => {
    const allowed = (tool: string, lists: Parameters<typeof toolAllowed>[2]) => toolAllowed('s', tool, lists);
    assert.ok(allowed('a', {}));
    assert.ok(!allowed('a', { backendExcluded: ['a'] }));
    assert.ok(!allowed('a', { serverExcluded: ['mcp__s__a'], serverAllowed: ['a'] }), 'exclude wins');
    assert.ok(!allowed('b', { backendAllowed: ['a'] }));
    assert.ok(allowed('b', { serverAllowed: ['b'], backendAllowed: ['a'] }), 'the server list replaces the backend list');
    assert.ok(!allowed('a', { serverAllowed: [] }), 'an empty allow list allows nothing');
  });

  it('side effects: by name (strong words anywhere, weak ones unless the name starts reading) or by annotations', () => {
    for (const n of ['write_file', 'delete', 'bulkDelete', 'execute_command', 'run-query', 'create_issue', 'move_file', 'git_push', 'send_email', 'remove-item', 'edit_file', 'create_directory', 'trigger-build'])
      assert.ok(isSideEffecting(n), n);
    for (const n of ['read_file', 'list_directory', 'get-sum', 'echo', 'search_files', 'get_update_status', 'list_created_items', 'fetch', 'get_message'])
      assert.ok(!isSideEffecting(n), n);
    assert.ok(isSideEffecting('frobnicate', { readOnlyHint: false }));
    assert.ok(isSideEffecting('frobnicate', { destructiveHint: true }));
    assert.ok(!isSideEffecting('frobnicate', { readOnlyHint: true }));
    assert.ok(isSideEffecting('delete_all', { readOnlyHint: true }), 'a read-only hint does not clear a name that says delete');
    assert.deepEqual(nameWords('getHTTPThing_v2-x'), ['get', 'httpthing', 'v2', 'x']);
  });
});
