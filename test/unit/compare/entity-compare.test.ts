import { compareDiffs } from '../../../src/domain/compare/entity-compare';

describe('compareDiffs', () => {
  const entity = (name: string, view: Record<string, unknown>) => ({ name, payload: view, view });

  it('diffs against the first instance that has a desired entity, in request order; the baseline gets no diff', () => {
    const result = compareDiffs('delayProfile', [
      { instanceId: 7, desired: null },
      { instanceId: 3, desired: entity('Standard', { usenetDelay: 0, torrentDelay: 10 }) },
      { instanceId: 5, desired: entity('Standard', { usenetDelay: 0, torrentDelay: 10 }) },
      { instanceId: 1, desired: entity('Standard', { usenetDelay: 60, torrentDelay: 10 }) },
    ]);
    expect(result.baselineInstanceId).toBe(3);
    expect(result.diffs).toEqual([
      { instanceId: 5, changes: [{ entityType: 'delayProfile', name: 'Standard', action: 'unchanged', remoteId: null, fields: [] }] },
      { instanceId: 1, changes: [{ entityType: 'delayProfile', name: 'Standard', action: 'update', remoteId: null, fields: [{ field: 'usenetDelay', type: 'changed', current: 0, desired: 60 }] }] },
    ]);
  });

  it('has no baseline when no instance has the entity', () => {
    expect(compareDiffs('qualityProfile', [{ instanceId: 1, desired: null }])).toEqual({ baselineInstanceId: null, diffs: [] });
  });
});
