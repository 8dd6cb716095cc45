import { conflictDetails, exportEntity, planDelete, planFieldEdits, replayPcd, type PcdOp, type UserOp } from '../../../src/domain/pcd';
import { sampleRepository } from './helpers';

const repo = sampleRepository();
const baseOnly = replayPcd({ base: repo.base, tweaks: repo.tweaks });

function userOp(id: number, planned: { sql: string; target: UserOp['target'] } | null): UserOp {
  if (!planned) throw new Error('nothing planned');
  return { id, sql: planned.sql, target: planned.target };
}

const baseOp = (id: number, sql: string): PcdOp => ({ layer: 'base', id, file: `ops/9.${id}.sql`, position: 1, sql });

describe('conflictDetails: what a pending conflict is about', () => {
  it('names each field the stale op changes, with upstream beside mine, and rebuilds the payload mine would give', () => {
    const edit = userOp(
      601,
      planFieldEdits(baseOnly.resolved, 'custom_format', 'Atmos', [
        { path: 'description', value: 'Object audio' },
        { path: 'conditions.TrueHD.negate', value: true },
      ]),
    );
    // The base changes the description only; the op's guard on it fails, so none of its changes apply.
    const moved = replayPcd({ base: [...repo.base, baseOp(9101, `update "custom_formats" set "description" = 'Atmos upstream' where "name" = 'Atmos'`)], tweaks: repo.tweaks, user: [edit] });
    expect(moved.conflicts.map((c) => c.opId)).toEqual([601]);
    const [detail] = conflictDetails(moved, 'custom_format', 'Atmos', new Map([[601, edit.sql]]));
    expect(detail).toMatchObject({ opId: 601, reason: 'guard_mismatch' });
    expect(detail.fields).toEqual([
      { field: 'description', type: 'changed', current: 'Atmos upstream', desired: 'Object audio' },
      { field: 'conditions.TrueHD.negate', type: 'changed', current: false, desired: true },
    ]);
    const upstream = exportEntity(moved.resolved, 'custom_format', 'Atmos').data as Record<string, unknown>;
    expect(detail.mine).toEqual({ ...upstream, description: 'Object audio', conditions: (upstream.conditions as { name: string }[]).map((c) => (c.name === 'TrueHD' ? { ...c, negate: true } : c)) });
    // The cached state is untouched: the replay of mine ran on a copy.
    expect(exportEntity(moved.resolved, 'custom_format', 'Atmos').data).toEqual(upstream);
  });

  it('gives no detail for an entity without a conflict or an op it is not given; a stale delete has no payload of mine', () => {
    const edit = userOp(602, planDelete(baseOnly.resolved, 'custom_format', 'Cam'));
    const moved = replayPcd({ base: [...repo.base, baseOp(9102, `update "custom_formats" set "description" = 'changed' where "name" = 'Cam'`)], tweaks: repo.tweaks, user: [edit] });
    expect(conflictDetails(moved, 'custom_format', 'Atmos', new Map([[602, edit.sql]]))).toEqual([]);
    expect(conflictDetails(moved, 'custom_format', 'Cam', new Map())).toEqual([]);
    expect(conflictDetails(moved, 'custom_format', 'Cam', new Map([[602, edit.sql]]))).toEqual([{ opId: 602, reason: 'guard_mismatch', mine: null, fields: [] }]);
  });
});
