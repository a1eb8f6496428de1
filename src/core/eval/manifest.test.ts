import assert from 'node:assert/strict';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS, type MassGenConfig } from '../config/types';
import { configFingerprint, mergedCoverage, mergeMismatch, resumeMismatch, type EvalManifest } from './manifest';

const config = (over: { apiKey?: string; model?: string; url?: string } = {}): MassGenConfig => ({
  agents: [{ id: 'a', backend: { type: 'openai', family: 'openai-compatible', model: over.model ?? 'm1', baseUrl: over.url ?? 'https://api.example.com/v1', apiKey: over.apiKey ?? 'sk-one' } }],
  orchestrator: { ...DEFAULT_ORCHESTRATOR },
  timeouts: { ...DEFAULT_TIMEOUTS },
  source: 'x.yaml',
});

const manifest = (over: Partial<EvalManifest> = {}): EvalManifest => ({
  format: 'massgen-eval/1',
  dataset: { file: 'd.jsonl', sha256: 'd1', items: 10 },
  selected: 10,
  limit: null,
  shard: null,
  config: { file: 'c.yaml', fingerprint: 'f1', agents: [] },
  systems: [{ id: 'team', kind: 'team', agents: ['a'] }],
  created: 'now',
  ...over,
});

describe('eval manifest', () => {
  it('the fingerprint follows the models and settings, not the key, and holds no key', () => {
    assert.equal(configFingerprint(config({ apiKey: 'sk-one' })), configFingerprint(config({ apiKey: 'sk-two' })));
    assert.equal(configFingerprint(config({ url: 'https://u:sk-1@api.example.com/v1?key=sk-2' })), configFingerprint(config()));
    assert.notEqual(configFingerprint(config({ model: 'm2' })), configFingerprint(config()));
    assert.match(configFingerprint(config()), /^[0-9a-f]{64}$/);
  });

  it('the fingerprint follows escalation stages, so an eval does not resume across them', () => {
    const staged = config();
    staged.orchestrator.escalation = { stages: [['a'], ['b']], minAgreeing: 1 };
    assert.notEqual(configFingerprint(staged), configFingerprint(config()));
  });

  it('resume only into a folder of the same dataset, team, systems and shard', () => {
    assert.equal(resumeMismatch(manifest(), manifest({ limit: 5, created: 'later' })), null, '--limit may change on resume');
    assert.match(resumeMismatch(manifest(), manifest({ dataset: { file: 'd.jsonl', sha256: 'd2', items: 10 } }))!, /another dataset/);
    assert.match(resumeMismatch(manifest(), manifest({ config: { file: 'c.yaml', fingerprint: 'f2', agents: [] } }))!, /another team/);
    assert.match(resumeMismatch(manifest(), manifest({ systems: [] }))!, /other systems/);
    assert.match(resumeMismatch(manifest({ shard: { index: 1, count: 2 } }), manifest({ shard: { index: 2, count: 2 } }))!, /holds shard 1\/2, not 2\/2/);
  });

  it('merge: shards of one eval; coverage says which are missing', () => {
    const s = (index: number, count = 3) => manifest({ shard: { index, count }, selected: 3 });
    assert.equal(mergeMismatch([{ dir: 'x', manifest: s(1) }, { dir: 'y', manifest: s(2) }]), null);
    assert.match(mergeMismatch([{ dir: 'x', manifest: s(1) }, { dir: 'y', manifest: manifest({ shard: { index: 2, count: 3 }, dataset: { file: 'o', sha256: 'o', items: 1 } }) }])!, /y evaluated another dataset than x/);
    assert.match(mergeMismatch([{ dir: 'x', manifest: s(1) }, { dir: 'y', manifest: s(2, 4) }])!, /y is shard 2\/4, x shard 1\/3/);
    assert.deepEqual(mergedCoverage([s(1), s(3), s(3)]), { items: 10, missingShards: ['2/3'], duplicateShards: ['3/3'] });
    assert.equal(mergedCoverage([manifest({ shard: { index: 1, count: 2 }, limit: 4 })]).items, 4);
  });
});
