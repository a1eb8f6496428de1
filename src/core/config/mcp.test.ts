import assert from 'node:assert/strict';
import { expandEnvRefs, parseMcpSettings } from './mcp';

describe('mcp config (for hosts: parseMcpSettings)', () => {
  it('expands upper-case ${VAR} only and lists the unset ones', () => {
    assert.deepEqual(expandEnvRefs('${A}-${b}-${C_2}-${A}', { A: 'x' }), { value: 'x-${b}--x', unset: ['C_2'] });
  });

  it('parses a settings-shaped block into typed servers', () => {
    const { settings, issues } = parseMcpSettings({
      mcp_servers: [{ name: 'fs', command: 'npx', args: ['-y', 'pkg', '${DIR}'], env: { K: '${KEY}' } }],
      require_approval: ['x'],
      planning_mode: true,
    }, { DIR: '/d', KEY: 'secret' });
    assert.deepEqual(issues, []);
    assert.deepEqual(settings, {
      mcpServers: [{ name: 'fs', type: 'stdio', command: 'npx', args: ['-y', 'pkg', '/d'], env: { K: 'secret' } }],
      requireApproval: ['x'],
      planningMode: { enabled: true },
    });
  });

  it('returns issues with paths instead of throwing; unset variables are errors only when required', () => {
    const bad = parseMcpSettings({ mcp_servers: [{ name: 'x', url: 'nope' }] }, {});
    assert.deepEqual(bad.issues.map((i) => [i.path.join('.'), i.severity]), [['mcp_servers.0.url', 'error']]);
    const unset = parseMcpSettings({ mcp_servers: [{ name: 'h', url: 'http://h/mcp', headers: { Authorization: 'Bearer ${T}' } }] }, {}, { requireEnv: true });
    assert.deepEqual(unset.issues, [{ path: ['mcp_servers', 0, 'headers', 'Authorization'], message: 'MCP server "h": headers.Authorization refers to ${T}: set T', severity: 'error' }]);
    assert.deepEqual(parseMcpSettings(undefined), { settings: {}, issues: [] });
  });
});
