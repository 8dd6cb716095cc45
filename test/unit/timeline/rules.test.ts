import { BADGES, includedSources, normalizeStatus, rawStatusesFor } from '../../../src/domain/timeline/rules';

describe('timeline filter rules', () => {
  it('includes sources by scope, source list and status (rules 1-5)', () => {
    expect(includedSources({})).toEqual(['canary', 'rollback', 'snapshot', 'sync']);
    expect(includedSources({ instanceId: 1 })).toEqual(['canary', 'sync']);
    expect(includedSources({ arrType: 'movie_app' })).toEqual(['canary', 'sync']);
    expect(includedSources({ databaseId: 1 })).toEqual(['rollback', 'snapshot']);
    expect(includedSources({ scopeKind: 'pcd-database' })).toEqual(['rollback', 'snapshot']);
    expect(includedSources({ sources: ['sync', 'snapshot'] })).toEqual(['snapshot', 'sync']);
    expect(includedSources({ sources: ['snapshot'], instanceId: 3 })).toEqual([]);
    expect(includedSources({ status: 'partial' })).toEqual(['sync']);
    expect(includedSources({ status: 'pending' })).toEqual(['canary']);
  });

  it('refuses contradictory scopes (rule 6)', () => {
    expect(() => includedSources({ scopeKind: 'arr-instance', databaseId: 1 })).toThrow('query.scopeKind arr-instance contradicts query.databaseId');
    expect(() => includedSources({ scopeKind: 'pcd-database', instanceId: 1 })).toThrow('contradicts query.instanceId');
    expect(() => includedSources({ arrType: 'movie_app', databaseId: 1 })).toThrow('query.databaseId cannot be combined with query.arrType');
  });

  it('maps source statuses to normalized statuses and badges', () => {
    expect(normalizeStatus('canary', 'awaiting_confirmation')).toBe('pending');
    expect(normalizeStatus('canary', 'rolling_out')).toBe('running');
    expect(normalizeStatus('canary', 'aborted')).toBe('cancelled');
    expect(rawStatusesFor('canary', 'running')).toEqual(['canary_running', 'rolling_out']);
    expect(BADGES[normalizeStatus('sync', 'partial')]).toBe('warning');
    expect(BADGES[normalizeStatus('rollback', 'failed')]).toBe('danger');
  });
});
