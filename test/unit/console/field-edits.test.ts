import { parsePath } from '../../../src/domain/diff/path';
import { applyFieldEdits, entityNames, modelOf, planFieldEdits, readEntity, replayPcd, type ReplayedPcd } from '../../../src/domain/pcd';
import { describeWithShared } from '../../helpers/shared-data';
import { trashRepository, TRASH_PCD_PARTS } from '../pcd/helpers';
import { fieldChanges, fieldPath, keyedListChanges, type FieldChange } from '../../../web/src/pages/configuration/editors/field-edits';
import { profileChanges, withScores, type QualityProfile } from '../../../web/src/pages/configuration/editors/quality-profile/model';

// The console's editors save a draft as field edits; the API applies them with applyFieldEdits.
// Applied by the API's own function, the edits must give exactly the draft.

const profile: QualityProfile = {
  name: 'Movies 1080p',
  description: 'HD movies',
  upgradesAllowed: true,
  minimumCustomFormatScore: 0,
  upgradeUntilScore: 1000,
  upgradeScoreIncrement: 1,
  tags: [],
  languages: [{ name: 'Original', type: 'simple' }],
  qualities: [
    { type: 'quality', name: 'Remux-1080p', enabled: false, upgradeUntil: false },
    { type: 'quality', name: 'Bluray-1080p', enabled: true, upgradeUntil: true },
    { type: 'group', name: 'WEB 1080p', enabled: true, upgradeUntil: false, members: ['WEBDL-1080p', 'WEBRip-1080p'] },
    { type: 'quality', name: 'DVD-R', enabled: true, upgradeUntil: false },
  ],
  customFormats: {
    all: [{ name: 'Atmos', score: 100 }],
    movie_app: [
      { name: 'Cam', score: -10000 },
      { name: 'Preferred Groups', score: 400 },
      { name: 'v1.0 Mono', score: 5 },
    ],
    series_app: [],
    music_app: [],
  },
};

/** What the API does with `{changes}` (src/services/pcd/pcd-service.ts), on portable data. */
const apply = (type: Parameters<typeof modelOf>[0], data: unknown, changes: FieldChange[]) => applyFieldEdits(modelOf(type), data, changes.map((c) => ({ path: c.path, value: c.value })));
const applied = (original: QualityProfile, draft: QualityProfile) => apply('quality_profile', original, profileChanges(original, draft));

describe('fieldPath', () => {
  it('writes the API notation: dots and backslashes inside a segment are escaped, and parse back to the segments', () => {
    expect(fieldPath('customFormats', 'all', 'v1.0 Mono', 'score')).toBe('customFormats.all.v1\\.0 Mono.score');
    for (const segments of [['a', 'b.c', 'd\\e', ''], ['qualities', 'WEB 1080p', 'enabled'], ['x.', '.y', '\\.']]) {
      expect(parsePath(fieldPath(...segments))).toEqual(segments);
    }
  });
});

describe('quality profile edits', () => {
  it('one changed score is one edit of that score, and applies to the draft', () => {
    const draft = { ...profile, customFormats: { ...profile.customFormats, movie_app: withScores(profile.customFormats.movie_app, new Map([['Preferred Groups', 450]])) } };
    expect(profileChanges(profile, draft)).toEqual([{ path: 'customFormats.movie_app.Preferred Groups.score', value: 450 }]);
    expect(applied(profile, draft)).toEqual(draft);
  });

  it('a format whose name holds a dot is addressed escaped; added and removed formats are whole items', () => {
    const draft: QualityProfile = {
      ...profile,
      customFormats: {
        ...profile.customFormats,
        all: withScores(profile.customFormats.all, new Map([['Not English', -1000]])),
        movie_app: withScores(
          profile.customFormats.movie_app.filter((s) => s.name !== 'Cam'),
          new Map([['v1.0 Mono', 10]]),
        ),
      },
    };
    expect(profileChanges(profile, draft)).toEqual([
      { path: 'customFormats.all.Not English', value: { name: 'Not English', score: -1000 } },
      { path: 'customFormats.movie_app.v1\\.0 Mono.score', value: 10 },
      { path: 'customFormats.movie_app.Cam' },
    ]);
    const result = applied(profile, draft) as unknown as QualityProfile;
    // The API keeps scores by name (its order is the name order when read back).
    expect(withScores(result.customFormats.all, new Map())).toEqual(draft.customFormats.all);
    expect(result.customFormats.movie_app).toEqual(draft.customFormats.movie_app);
  });

  it('a new order sends the whole ladder; a flag alone is its own field; thresholds, languages and description as fields', () => {
    const reordered = { ...profile, qualities: [profile.qualities[0], profile.qualities[2], profile.qualities[1], profile.qualities[3]] };
    expect(profileChanges(profile, reordered)).toEqual([{ path: 'qualities', value: reordered.qualities }]);
    expect(applied(profile, reordered)).toEqual(reordered);

    const flags: QualityProfile = {
      ...profile,
      description: null,
      upgradeScoreIncrement: 5,
      languages: [{ name: 'Original', type: 'must' }],
      qualities: profile.qualities.map((q) => ({ ...q, enabled: true, upgradeUntil: q.name === 'WEB 1080p' })),
    };
    expect(profileChanges(profile, flags)).toEqual([
      { path: 'description', value: null },
      { path: 'upgradeScoreIncrement', value: 5 },
      { path: 'qualities.Remux-1080p.enabled', value: true },
      { path: 'qualities.Bluray-1080p.upgradeUntil', value: false },
      { path: 'qualities.WEB 1080p.upgradeUntil', value: true },
      { path: 'languages.Original.type', value: 'must' },
    ]);
    expect(applied(profile, flags)).toEqual(flags);
    expect(profileChanges(profile, structuredClone(profile))).toEqual([]);
  });
});

describe('the other editors', () => {
  it('quality definitions: each changed size of a quality', () => {
    const definitions = { name: 'Movie Sizes', entries: [{ quality: 'Bluray-1080p', minSize: 50, maxSize: 450, preferredSize: 350 }, { quality: 'WEBDL-1080p', minSize: 15, maxSize: 400, preferredSize: 250 }] };
    const draft = { ...definitions, entries: [{ ...definitions.entries[0], minSize: 60 }, { ...definitions.entries[1], maxSize: 380 }] };
    const changes = keyedListChanges(['entries'], definitions.entries, draft.entries, 'quality', ['minSize', 'preferredSize', 'maxSize']);
    expect(changes).toEqual([
      { path: 'entries.Bluray-1080p.minSize', value: 60 },
      { path: 'entries.WEBDL-1080p.maxSize', value: 380 },
    ]);
    expect(apply('movie_app_quality_definitions', definitions, changes)).toEqual(draft);
  });

  it('metadata profile: an allowed flag per type, in place (the list keeps its order)', () => {
    const types = ['Album', 'EP', 'Single'].map((name) => ({ name, allowed: true }));
    const metadata = { name: 'Everything', description: null, primaryAlbumTypes: types, secondaryAlbumTypes: [], releaseStatuses: [] };
    const draft = { ...metadata, primaryAlbumTypes: types.map((t) => ({ ...t, allowed: t.name !== 'Single' })) };
    const changes = keyedListChanges(['primaryAlbumTypes'], metadata.primaryAlbumTypes, draft.primaryAlbumTypes, 'name', ['allowed']);
    expect(changes).toEqual([{ path: 'primaryAlbumTypes.Single.allowed', value: false }]);
    expect(apply('music_app_metadata_profile', metadata, changes)).toEqual(draft);
  });

  it('delay profile: the changed fields, null included', () => {
    const delay = { name: 'Standard', preferredProtocol: 'prefer_usenet', usenetDelay: 0 as number | null, torrentDelay: 120, bypassIfHighestQuality: true };
    const draft = { ...delay, preferredProtocol: 'only_torrent', usenetDelay: null };
    const changes = fieldChanges(delay, draft, ['preferredProtocol', 'usenetDelay', 'torrentDelay', 'bypassIfHighestQuality']);
    expect(changes).toEqual([
      { path: 'preferredProtocol', value: 'only_torrent' },
      { path: 'usenetDelay', value: null },
    ]);
    expect(apply('delay_profile', delay, changes)).toEqual(draft);
  });
});

describeWithShared(TRASH_PCD_PARTS, "trash-pcd's quality profiles", () => {
  let replay: ReplayedPcd;
  beforeAll(() => {
    const repo = trashRepository();
    replay = replayPcd({ base: repo.base, tweaks: repo.tweaks });
  });

  it('every profile, its ladder reversed, cutoff moved and every score doubled: the edits apply to the draft and plan one op on the resolved state', () => {
    const names = entityNames(replay.resolved, 'quality_profile');
    expect(names.length).toBeGreaterThan(20);
    let scores = 0;
    for (const name of names) {
      const original = readEntity(replay.resolved, 'quality_profile', name)!.data as unknown as QualityProfile;
      const enabled = original.qualities.filter((q) => q.enabled);
      const cutoff = enabled[enabled.length - 1]?.name;
      const doubled = (list: QualityProfile['customFormats']['all']) => list.map((s) => ({ ...s, score: s.score * 2 }));
      const draft: QualityProfile = {
        ...original,
        qualities: [...original.qualities].reverse().map((q) => ({ ...q, upgradeUntil: q.name === cutoff })),
        customFormats: { all: doubled(original.customFormats.all), movie_app: doubled(original.customFormats.movie_app), series_app: doubled(original.customFormats.series_app), music_app: doubled(original.customFormats.music_app) },
      };
      const changes = profileChanges(original, draft);
      const scoreChanges = changes.filter((c) => c.path.startsWith('customFormats.'));
      expect(scoreChanges.every((c) => c.path.endsWith('.score'))).toBe(true);
      expect(scoreChanges).toHaveLength(Object.values(original.customFormats).flat().filter((s) => s.score !== 0).length);
      scores += scoreChanges.length;
      expect(apply('quality_profile', original, changes)).toEqual(draft);
      expect(planFieldEdits(replay.resolved, 'quality_profile', name, changes.map((c) => ({ path: c.path, value: c.value })))).not.toBeNull();
    }
    expect(scores).toBeGreaterThan(1000);
  });
});
