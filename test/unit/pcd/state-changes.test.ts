import { copyDatabase, planDelete, planFieldEdits, planImport, readEntity, replayPcd, resolvedStateChanges } from '../../../src/domain/pcd';
import { sampleRepository } from './helpers';

const repo = sampleRepository();

describe('resolvedStateChanges (what differs between two resolved states)', () => {
  const then = replayPcd({ base: repo.base, tweaks: repo.tweaks }).resolved;

  it('is empty for two replays of the same ops', () => {
    const again = replayPcd({ base: repo.base, tweaks: repo.tweaks }).resolved;
    expect(resolvedStateChanges(then, again)).toEqual([]);
  });

  it('names each entity added, removed or changed, by type then name, with the changed fields', () => {
    const { db: now } = copyDatabase(then);
    const atmos = readEntity(now, 'custom_format', 'Atmos')!.data;
    now.exec(planImport(now, { entityType: 'custom_format', data: { ...atmos, name: 'Atmos copy' } }).sql);
    now.exec(planFieldEdits(now, 'quality_profile', 'Movies 1080p', [{ path: 'description', value: 'changed' }, { path: 'upgradeUntilScore', value: 1234 }])!.sql);
    now.exec(planDelete(now, 'delay_profile', 'Standard').sql);
    expect(resolvedStateChanges(then, now)).toEqual([
      { portableType: 'custom_format', name: 'Atmos copy', change: 'added', fields: [], fieldCount: 0 },
      { portableType: 'quality_profile', name: 'Movies 1080p', change: 'changed', fields: ['description', 'upgradeUntilScore'], fieldCount: 2 },
      { portableType: 'delay_profile', name: 'Standard', change: 'removed', fields: [], fieldCount: 0 },
    ]);
    // Read the other way round, the same entities differ in the other direction.
    expect(resolvedStateChanges(now, then).map((c) => [c.name, c.change])).toEqual([
      ['Atmos copy', 'removed'],
      ['Movies 1080p', 'changed'],
      ['Standard', 'added'],
    ]);
    expect(resolvedStateChanges(then, now, 1).find((c) => c.change === 'changed')).toMatchObject({ fields: ['description'], fieldCount: 2 });
  });
});
