/**
 * A hand-tuned Radarr for adoption tests: 30 custom formats with every condition type Radarr has
 * (regex title/group/edition, language, indexer flag, source, resolution, quality modifier, size,
 * year), two profiles scoring them, and custom naming. Seeded through the typed client, so the
 * emulator holds exactly what a real Radarr would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RadarrClient } from '../../src/clients';
import { startEmulator, type Emulator } from '../../src/emulators';
import type { Harness } from './harness';
import type { CustomFormatPayload } from '../../src/domain/app-resources';

type Spec = CustomFormatPayload['specifications'][number];

const spec = (name: string, implementation: string, fields: Record<string, unknown>, flags: { negate?: boolean; required?: boolean } = {}): Spec => ({
  name,
  implementation,
  negate: flags.negate ?? false,
  required: flags.required ?? false,
  fields: Object.entries(fields).map(([n, value]) => ({ name: n, value })),
});
const title = (name: string, pattern: string, flags?: { negate?: boolean; required?: boolean }) => spec(name, 'ReleaseTitleSpecification', { value: pattern }, flags);
const group = (name: string, pattern: string) => spec(name, 'ReleaseGroupSpecification', { value: pattern });

/** 30 formats, none named like a TRaSH format, so every one is a create in trash-pcd too. */
export const HAND_MADE_FORMATS: CustomFormatPayload[] = [
  { name: 'My x265', includeCustomFormatWhenRenaming: false, specifications: [title('x265', '[xh][ .]?265|\\bHEVC\\b')] },
  { name: 'My x264', includeCustomFormatWhenRenaming: false, specifications: [title('x264', '[xh][ .]?264|\\bAVC\\b')] },
  { name: 'My HDR', includeCustomFormatWhenRenaming: true, specifications: [title('HDR', '\\bHDR(\\b|\\d)'), title('Not SDR', '\\bSDR\\b', { negate: true })] },
  { name: 'My DV', includeCustomFormatWhenRenaming: true, specifications: [title('DV', '\\b(dv|dovi|dolby[ .]?vision)\\b', { required: true })] },
  { name: 'My Atmos', includeCustomFormatWhenRenaming: false, specifications: [title('Atmos', '\\bATMOS(\\b|\\d)')] },
  { name: 'My TrueHD', includeCustomFormatWhenRenaming: false, specifications: [title('TrueHD', '\\bTrue[ .-]?HD\\b')] },
  { name: 'My DTS-HD MA', includeCustomFormatWhenRenaming: false, specifications: [title('DTS-HD MA', '\\bDTS[ .-]?(HD[ .-]?)?MA\\b')] },
  { name: 'My Repack', includeCustomFormatWhenRenaming: false, specifications: [title('Repack', '\\b(repack|rerip)\\b')] },
  { name: 'My Proper', includeCustomFormatWhenRenaming: false, specifications: [title('Proper', '\\bproper\\b')] },
  { name: 'My Tier 1', includeCustomFormatWhenRenaming: false, specifications: [group('FraMeSToR', '^(FraMeSToR)$'), group('CiNEPHiLES', '^(CiNEPHiLES)$')] },
  { name: 'My Tier 2', includeCustomFormatWhenRenaming: false, specifications: [group('HiFi', '^(HiFi)$'), group('DON', '^(DON)$')] },
  { name: 'My LQ Groups', includeCustomFormatWhenRenaming: false, specifications: [group('YIFY', '^(YIFY|YTS)$')] },
  { name: 'My IMAX', includeCustomFormatWhenRenaming: true, specifications: [spec('IMAX', 'EditionSpecification', { value: '\\bIMAX\\b' })] },
  { name: "My Director's Cut", includeCustomFormatWhenRenaming: true, specifications: [spec('Director', 'EditionSpecification', { value: "\\bdirector'?s?\\b" })] },
  { name: 'My English', includeCustomFormatWhenRenaming: false, specifications: [spec('English', 'LanguageSpecification', { value: 1, exceptLanguage: false })] },
  { name: 'My Not French', includeCustomFormatWhenRenaming: false, specifications: [spec('French', 'LanguageSpecification', { value: 2, exceptLanguage: true })] },
  { name: 'My Original Language', includeCustomFormatWhenRenaming: false, specifications: [spec('Original', 'LanguageSpecification', { value: -2, exceptLanguage: false })] },
  { name: 'My Freeleech', includeCustomFormatWhenRenaming: false, specifications: [spec('Freeleech', 'IndexerFlagSpecification', { value: 1 })] },
  { name: 'My Internal', includeCustomFormatWhenRenaming: false, specifications: [spec('Internal', 'IndexerFlagSpecification', { value: 32 })] },
  { name: 'My Bluray', includeCustomFormatWhenRenaming: false, specifications: [spec('Bluray', 'SourceSpecification', { value: 9 })] },
  { name: 'My WEB-DL', includeCustomFormatWhenRenaming: false, specifications: [spec('WEBDL', 'SourceSpecification', { value: 7 }), spec('WEBRip', 'SourceSpecification', { value: 8 })] },
  { name: 'My CAM', includeCustomFormatWhenRenaming: false, specifications: [spec('CAM', 'SourceSpecification', { value: 1 }), spec('TS', 'SourceSpecification', { value: 2 })] },
  { name: 'My 2160p', includeCustomFormatWhenRenaming: false, specifications: [spec('2160p', 'ResolutionSpecification', { value: 2160 })] },
  { name: 'My 720p', includeCustomFormatWhenRenaming: false, specifications: [spec('720p', 'ResolutionSpecification', { value: 720 })] },
  { name: 'My Remux', includeCustomFormatWhenRenaming: false, specifications: [spec('Remux', 'QualityModifierSpecification', { value: 5 })] },
  { name: 'My BR-DISK', includeCustomFormatWhenRenaming: false, specifications: [spec('BRDISK', 'QualityModifierSpecification', { value: 4 }), title('Not remux', '\\bremux\\b', { negate: true })] },
  { name: 'My Small', includeCustomFormatWhenRenaming: false, specifications: [spec('Small', 'SizeSpecification', { min: 0, max: 1.5 })] },
  { name: 'My Huge', includeCustomFormatWhenRenaming: false, specifications: [spec('Huge', 'SizeSpecification', { min: 60, max: 1000000 })] },
  { name: 'My Classics', includeCustomFormatWhenRenaming: false, specifications: [spec('Before 1970', 'YearSpecification', { min: 1, max: 1969 })] },
  {
    name: 'My Modern UHD',
    includeCustomFormatWhenRenaming: false,
    specifications: [spec('Recent', 'YearSpecification', { min: 2015, max: 9999 }), spec('2160p', 'ResolutionSpecification', { value: 2160 }, { required: true })],
  },
];

/** Scores of the two hand-made profiles, by format name. */
export const HAND_MADE_SCORES: Record<string, Record<string, number>> = {
  'My Movies 1080p': { 'My x265': -50, 'My Tier 1': 1800, 'My Tier 2': 1500, 'My LQ Groups': -10000, 'My Repack': 5, 'My Proper': 5, 'My English': 10, 'My CAM': -10000 },
  'My Movies 2160p': { 'My HDR': 500, 'My DV': 1000, 'My Atmos': 300, 'My TrueHD': 200, 'My Remux': 100, 'My BR-DISK': -10000, 'My 2160p': 50, 'My Huge': -100 },
};

export const HAND_MADE_NAMING = {
  renameMovies: true,
  standardMovieFormat: '{Movie CleanTitle} ({Release Year}) {Quality Full} [{MediaInfo VideoCodec}]-{Release Group}',
  movieFolderFormat: '{Movie CleanTitle} ({Release Year}) {tmdb-{TmdbId}}',
  replaceIllegalCharacters: true,
  colonReplacementFormat: 'spaceDash' as const,
};

/** Seeds the formats, two profiles (1080p with a group, 2160p with a language) and the naming. */
export async function seedHandTunedRadarr(client: RadarrClient): Promise<void> {
  const formats = new Map<string, number>();
  for (const format of HAND_MADE_FORMATS) formats.set(format.name, (await client.createCustomFormat(format)).id);
  const schema = await client.qualityProfileSchema();
  // The schema groups some qualities (WEB 1080p...): every quality, flattened, in the schema's order.
  const all = schema.items.flatMap((i) => (i.quality ? [i.quality] : i.items.map((m) => m.quality!)));
  const quality = (name: string) => all.find((q) => q.name === name)!;
  const formatItems = (profile: string) => [...formats].map(([name, id]) => ({ format: id, name, score: HAND_MADE_SCORES[profile][name] ?? 0 }));
  const ids = new Set(['WEBDL-1080p', 'WEBRip-1080p', 'Bluray-1080p', 'Remux-2160p', 'Bluray-2160p', 'WEBDL-2160p'].map((n) => quality(n).id));
  const rest = all.filter((q) => !ids.has(q.id)).map((q) => ({ quality: q, items: [], allowed: false }));
  await client.createQualityProfile({
    ...schema,
    name: 'My Movies 1080p',
    upgradeAllowed: true,
    cutoff: 1000,
    items: [
      ...rest,
      { id: 1000, name: 'WEB 1080p', allowed: true, items: [quality('WEBRip-1080p'), quality('WEBDL-1080p')].map((q) => ({ quality: q, items: [], allowed: true })) },
      { quality: quality('Bluray-1080p'), items: [], allowed: true },
      ...[quality('WEBDL-2160p'), quality('Bluray-2160p'), quality('Remux-2160p')].map((q) => ({ quality: q, items: [], allowed: false })),
    ],
    minFormatScore: 10,
    cutoffFormatScore: 2000,
    minUpgradeFormatScore: 5,
    formatItems: formatItems('My Movies 1080p'),
    language: { id: 1, name: 'English' },
  });
  await client.createQualityProfile({
    ...schema,
    name: 'My Movies 2160p',
    upgradeAllowed: false,
    cutoff: quality('Remux-2160p').id,
    items: [
      ...rest,
      ...[quality('WEBRip-1080p'), quality('WEBDL-1080p'), quality('Bluray-1080p')].map((q) => ({ quality: q, items: [], allowed: false })),
      ...[quality('WEBDL-2160p'), quality('Bluray-2160p'), quality('Remux-2160p')].map((q) => ({ quality: q, items: [], allowed: true })),
    ],
    minFormatScore: 0,
    cutoffFormatScore: 10000,
    minUpgradeFormatScore: 1,
    formatItems: formatItems('My Movies 2160p'),
    language: { id: -2, name: 'Original' },
  });
  const naming = await client.getNamingConfig();
  await client.updateNamingConfig({ ...naming, ...HAND_MADE_NAMING });
}

export const HAND_TUNED_API_KEY = 'adopt-radarr-key-0123456789';

/** A PCD repository with no ops: a database holding only the schema and seeds. */
export function emptyPcd(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-empty-pcd-'));
  fs.writeFileSync(path.join(dir, 'pcd.json'), JSON.stringify({ name: 'empty', version: '0.1.0', arr_types: ['radarr', 'sonarr', 'lidarr'], dependencies: {} }));
  fs.mkdirSync(path.join(dir, 'ops'));
  return dir;
}

/** An emulated Radarr, hand-tuned (seedHandTunedRadarr), registered as an instance without a sync configuration. */
export async function handTunedRadarrInstance(h: Harness, name: string): Promise<{ id: number; emulator: Emulator }> {
  const emulator = await startEmulator({ app: 'radarr', apiKey: HAND_TUNED_API_KEY });
  await seedHandTunedRadarr(new RadarrClient({ baseUrl: emulator.baseUrl, apiKey: HAND_TUNED_API_KEY }, 5000));
  const created = await h.post('/instances', { name, arrType: 'movie_app', baseUrl: emulator.baseUrl, apiKey: HAND_TUNED_API_KEY });
  if (created.status !== 201) throw new Error(`instance failed: ${created.status} ${created.text}`);
  return { id: created.body.id, emulator };
}
