import { entityIdentity, exportEntity, loadPcdRepository, planUpdate, renamedEntities, replayPcd, type PcdOp, type UserOp } from '../../../src/domain/pcd';
import { FIXTURE_PCD_OPS, fixtureSchemaFiles } from '../../helpers/pcd-fixtures';
import { sampleRepository } from './helpers';

const repo = sampleRepository();
const baseOnly = replayPcd({ base: repo.base, tweaks: repo.tweaks });

const baseOp = (id: number, sql: string): PcdOp => ({ layer: 'base', id, file: `ops/9${id}.rename.sql`, position: 1, sql });
const renameFormat = (from: string, to: string) => `UPDATE custom_formats SET name = '${to}' WHERE name = '${from}'`;

function userRename(type: 'custom_format' | 'quality_profile', from: string, to: string, id = 1): UserOp {
  const data = { ...(exportEntity(baseOnly.resolved, type, from).data as Record<string, unknown>), name: to };
  const planned = planUpdate(baseOnly.resolved, type, from, data);
  if (!planned) throw new Error('nothing planned');
  return { id, sql: planned.sql, target: planned.target };
}

describe('entity identity across renames', () => {
  it('is the current name for an entity never renamed', () => {
    expect(entityIdentity(baseOnly.resolved, 'custom_format', 'Atmos')).toBe('Atmos');
    expect(renamedEntities(baseOnly.resolved, 'custom_format').size).toBe(0);
  });

  it('keeps the first name across base-op renames, and a pull that adds one', () => {
    const once = replayPcd({ base: [...repo.base, baseOp(1, renameFormat('Atmos', 'Atmos (DD+)'))], tweaks: repo.tweaks });
    expect(once.failures).toEqual([]);
    expect(entityIdentity(once.resolved, 'custom_format', 'Atmos (DD+)')).toBe('Atmos');
    // A later pull brings a second rename: the identity is still the first name.
    const pulled = replayPcd({
      base: [...repo.base, baseOp(1, renameFormat('Atmos', 'Atmos (DD+)')), baseOp(2, renameFormat('Atmos (DD+)', 'Object Audio'))],
      tweaks: repo.tweaks,
    });
    expect(pulled.failures).toEqual([]);
    expect(entityIdentity(pulled.resolved, 'custom_format', 'Object Audio')).toBe('Atmos');
    expect(entityIdentity(pulled.base, 'custom_format', 'Object Audio')).toBe('Atmos');
    // The profile still scores it under the new name.
    const qp = exportEntity(pulled.resolved, 'quality_profile', 'Movies 1080p').data as { customFormats: { all: { name: string }[] } };
    expect(qp.customFormats.all.map((c) => c.name)).toContain('Object Audio');
  });

  it('keeps the identity across a tweak rename', () => {
    const tweak: PcdOp = { layer: 'tweaks', id: null, file: 'tweaks/9.rename.sql', position: 1, sql: renameFormat('Atmos', 'Atmos Tweaked') };
    const replay = replayPcd({ base: repo.base, tweaks: [...repo.tweaks, tweak] });
    expect(replay.failures).toEqual([]);
    expect(entityIdentity(replay.resolved, 'custom_format', 'Atmos Tweaked')).toBe('Atmos');
  });

  it('keeps the identity across user edits (value-guarded UPDATE of name), on the resolved copy only', () => {
    const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user: [userRename('custom_format', 'Atmos', 'Atmos (User)'), userRename('quality_profile', 'Movies 1080p', 'Films 1080p', 2)] });
    expect(replay.failures).toEqual([]);
    expect(entityIdentity(replay.resolved, 'custom_format', 'Atmos (User)')).toBe('Atmos');
    expect(entityIdentity(replay.resolved, 'quality_profile', 'Films 1080p')).toBe('Movies 1080p');
    expect(renamedEntities(replay.base, 'custom_format').size).toBe(0);
  });

  it('is the current name again after renaming back, and is removed with the row; a reused rowid does not inherit it', () => {
    const back = replayPcd({ base: [...repo.base, baseOp(1, renameFormat('Atmos', 'X')), baseOp(2, renameFormat('X', 'Atmos'))], tweaks: repo.tweaks });
    expect(entityIdentity(back.resolved, 'custom_format', 'Atmos')).toBe('Atmos');

    const rowid = baseOnly.resolved.prepare("SELECT rowid FROM custom_formats WHERE name = 'Atmos'").pluck().get() as number;
    const reused = replayPcd({
      base: [
        ...repo.base,
        baseOp(1, renameFormat('Atmos', 'Gone')),
        baseOp(2, "DELETE FROM custom_formats WHERE name = 'Gone'"),
        baseOp(3, `INSERT INTO custom_formats (id, name, description, include_in_rename) VALUES (${rowid}, 'Newcomer', NULL, 0)`),
      ],
      tweaks: repo.tweaks,
    });
    expect(reused.failures).toEqual([]);
    expect(reused.resolved.prepare("SELECT rowid FROM custom_formats WHERE name = 'Newcomer'").pluck().get()).toBe(rowid);
    expect(entityIdentity(reused.resolved, 'custom_format', 'Newcomer')).toBe('Newcomer');
    expect(reused.resolved.prepare('SELECT COUNT(*) FROM _pcd_identity').pluck().get()).toBe(0);
  });

  it('is tracked on a schema dependency schema too', () => {
    const schema = loadPcdRepository({ ops: fixtureSchemaFiles('1.0.0') }).base.map((op) => ({ ...op, layer: 'schema' as const, id: null, file: `deps/praxrr-schema/${op.file}` }));
    const base = loadPcdRepository({ ops: Object.entries(FIXTURE_PCD_OPS['1.0.0']).map(([file, text]) => ({ file: file.replace(/^ops\//, ''), text })) }).base;
    const replay = replayPcd({ schema, base: [...base, baseOp(1, renameFormat('Old Format', 'Renamed Format'))] });
    expect(replay.failures).toEqual([]);
    expect(replay.schema.source).toBe('dependency');
    expect(entityIdentity(replay.resolved, 'custom_format', 'Renamed Format')).toBe('Old Format');
  });
});
