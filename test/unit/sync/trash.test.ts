/**
 * trash-pcd (real data) synced to emulated Radarr and Sonarr: several profiles, with quality groups
 * and a profile language, plus delay profile, naming, media settings and quality definitions. Every
 * payload is accepted and validates against the app's OpenAPI document; a second preview shows
 * every entity unchanged. Also with a namespace and deleteUnmanaged.
 */
import type { AnyArrClient } from '../../../src/clients';
import { emptySelection, previewChanges, readSyncSource, type SyncSelection } from '../../../src/domain/sync';
import type { Emulator } from '../../../src/emulators';
import { describeWithShared, hasShared } from '../../helpers/shared-data';
import { loadOpenApi, OPENAPI_PARTS, type OpenApi } from '../emulators/openapi';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { pending, startApp, summary, syncRound, trashDatabase, type AppUnderTest } from './helpers';

const RADARR_PROFILES = ['[Anime] Remux-1080p', 'Remux + WEB 1080p', 'WEB-2160p', 'HD Bluray + WEB', 'SQP-1 (2160p)', 'Remux 2160p (Combined)'];
const SONARR_PROFILES = ['[Anime] Remux-1080p', 'WEB-1080p', 'WEB-2160p (Alternative)', 'Remux + WEB 2160p'];

function trashSelection(app: 'radarr' | 'sonarr', overrides: Partial<SyncSelection> = {}): SyncSelection {
  return {
    ...emptySelection(),
    qualityProfiles: app === 'radarr' ? RADARR_PROFILES : SONARR_PROFILES,
    delayProfile: 'Default',
    naming: 'Default',
    mediaSettings: 'Default',
    qualityDefinitions: app === 'radarr' ? 'Movie' : 'Series',
    ...overrides,
  };
}

/** Every request body the emulator received validates against the documented request body. */
function expectRequestsValid(api: OpenApi, emulator: Emulator): void {
  const template = (path: string) => path.slice(api.apiBase.length).replace(/\/\d+$/, '/{id}');
  const bodies = emulator.writes.log.filter((w) => w.body !== undefined);
  expect(bodies.length).toBeGreaterThan(0);
  const errors = bodies.flatMap((w) => api.checkRequest(w.method, template(w.path), w.body).map((e) => `${w.method} ${w.path}: ${e}`));
  expect(errors).toEqual([]);
}

describeWithShared(TRASH_PCD_PARTS, 'trash-pcd profiles -> Radarr and Sonarr', () => {
  describe.each(['radarr', 'sonarr'] as const)('%s', (app) => {
    let target: AppUnderTest;
    afterEach(() => target?.emulator.close());

    it('syncs several profiles (groups, language) and their custom formats; everything is accepted; then all unchanged', async () => {
      target = await startApp(app);
      const selection = trashSelection(app);
      const source = readSyncSource(trashDatabase(), target.arrType, selection);
      expect(source.missing).toEqual([]);
      const { first, outcomes, second } = await syncRound(trashDatabase(), target, selection);

      expect(first.preview.issues.filter((i) => i.severity === 'error')).toEqual([]);
      const formats = first.preview.qualityProfiles!.customFormats;
      expect(formats.filter((c) => c.action === 'create').map((c) => c.name)).toEqual(source.customFormats.map((f) => f.name));
      expect(first.preview.qualityProfiles!.qualityProfiles.filter((c) => c.action === 'create').map((c) => c.name)).toEqual(selection.qualityProfiles);
      expect(target.emulator.writes.log.filter((w) => !w.applied)).toEqual([]);
      expect(target.emulator.writes.count('customformat', 'POST')).toBe(source.customFormats.length);
      expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(selection.qualityProfiles.length);
      expect(outcomes.map((o) => o.outcome).filter((o) => o === 'created')).toHaveLength(source.customFormats.length + selection.qualityProfiles.length);
      if (hasShared(...OPENAPI_PARTS)) expectRequestsValid(loadOpenApi(app), target.emulator);

      expect(pending(second)).toEqual([]);
      expect(second.plan.steps).toEqual([]);

      // Groups made it, with ids from 1000, and every quality is listed once.
      const profiles = await target.client.listQualityProfiles();
      const anime = profiles.find((p) => p.name === '[Anime] Remux-1080p')!;
      const groups = anime.items.filter((i) => !i.quality);
      expect(groups.length).toBeGreaterThanOrEqual(2);
      expect(groups.map((g) => g.id)).toEqual(groups.map((_, i) => 1000 + i));
      expect(groups.every((g) => g.items.length >= 2)).toBe(true);
      const qualityIds = anime.items.flatMap((i) => (i.quality ? [i.quality.id] : i.items.map((m) => m.quality!.id)));
      expect(new Set(qualityIds).size).toBe(qualityIds.length);
      expect(qualityIds.length).toBe(target.emulator.state.qualityDefinitions.length);
      if (app === 'radarr') expect((anime as { language?: unknown }).language).toEqual({ id: -2, name: 'Original' });
    });

    it('with a namespace and deleteUnmanaged: names carry the suffix, display names do not, the defaults go', async () => {
      target = await startApp(app);
      const selection = trashSelection(app, { qualityProfiles: [selectionProfile(app)], namespace: 'arrgo', deleteUnmanaged: true });
      const { first, second } = await syncRound(trashDatabase(), target, selection);

      const profileLines = summary(first).filter((l) => l.includes('/qualityProfile/'));
      expect(profileLines).toEqual([
        `qualityProfiles/qualityProfile/${selectionProfile(app)} create`,
        ...['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'].map((n) => `qualityProfiles/qualityProfile/${n} delete (unmanaged)`),
      ]);
      const steps = first.plan.steps;
      expect(steps.slice(-6).map((s) => [s.kind, s.op, s.name])).toEqual(
        ['Any', 'SD', 'HD-720p', 'HD-1080p', 'Ultra-HD', 'HD - 720p/1080p'].map((n) => ['qualityProfile', 'delete', n]),
      );
      const names = target.emulator.state.qualityProfiles.map((p) => p.name);
      expect(names).toEqual([`${selectionProfile(app)} [arrgo]`]);
      expect(target.emulator.state.customFormats.every((f) => f.name.endsWith(' [arrgo]'))).toBe(true);
      for (const { change } of previewChanges(first.preview)) expect(change.name.endsWith(' [arrgo]')).toBe(false);
      expect(pending(second)).toEqual([]);
    });
  });

  it('a namespaced sync leaves the user\'s same-named entities alone (they are unmanaged, kept)', async () => {
    const target = await startApp('radarr');
    try {
      const client: AnyArrClient = target.client;
      // Formats and a profile the user made in the app, with the very names arrgo would use.
      await syncRound(trashDatabase(), target, trashSelection('radarr', { qualityProfiles: ['WEB-2160p'] }));
      const before = (await client.listCustomFormats()).length;
      const { first, second } = await syncRound(trashDatabase(), target, trashSelection('radarr', { qualityProfiles: ['WEB-2160p'], namespace: 'fleet' }));
      const formats = first.preview.qualityProfiles!.customFormats;
      expect(formats.filter((c) => c.category === 'unmanaged')).toHaveLength(before);
      expect(formats.filter((c) => c.category === 'unmanaged').every((c) => c.action === 'unchanged')).toBe(true);
      expect(formats.filter((c) => c.action === 'create')).toHaveLength(before);
      // Same display names on both sides: the user's format and arrgo's namespaced one.
      const name = formats.find((c) => c.action === 'create')!.name;
      const same = formats.filter((c) => c.name === name);
      expect(same.map((c) => [c.action, c.category ?? null])).toEqual([
        ['create', null],
        ['unchanged', 'unmanaged'],
      ]);
      expect((await client.listCustomFormats()).length).toBe(2 * before);
      expect(pending(second)).toEqual([]);
    } finally {
      await target.emulator.close();
    }
  });
});

function selectionProfile(app: 'radarr' | 'sonarr'): string {
  return app === 'radarr' ? 'SQP-1 (2160p)' : 'WEB-1080p';
}
