import fs from 'node:fs';
import {
  entityNames,
  listResolved,
  resolveEntity,
  QUALITY_SEEDS,
  LANGUAGE_SEEDS,
  replayPcd,
  SCHEMA_DDL,
  type ReplayedPcd,
  type ReplayProgress,
} from '../../../src/domain/pcd';
import Database from 'better-sqlite3';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { count, trashRepository, TRASH_PCD_PARTS } from './helpers';

describeWithShared(TRASH_PCD_PARTS, 'trash-pcd replay', () => {
  let replay: ReplayedPcd;
  const progress: ReplayProgress[] = [];

  beforeAll(() => {
    const repo = trashRepository();
    replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, onProgress: (p) => progress.push(p) });
  });

  it('parses the repository into ~2,960 ops', () => {
    const repo = trashRepository();
    expect(repo.manifest?.arrTypes).toEqual(['movie_app', 'series_app']);
    expect(repo.files.base).toHaveLength(113);
    expect(repo.base).toHaveLength(2959);
    expect(repo.base[0]).toMatchObject({ id: 1, file: 'ops/1.initial.sql', markerId: null });
    expect(repo.base[1]).toMatchObject({ id: 2, file: 'ops/2.delete-all-french-german-profiles-and-cfs-from-main.sql', markerId: '4189' });
  });

  it('replays with foreign keys on and no failed op', () => {
    expect(replay.resolved.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(replay.failures).toEqual([]);
    expect(replay.stats.failed).toBe(0);
    expect(replay.conflicts).toEqual([]);
  });

  it('holds exactly the expected resolved state', () => {
    const db = replay.resolved;
    expect(count(db, 'custom_formats')).toBe(200);
    expect(count(db, 'regular_expressions')).toBe(979);
    expect(count(db, 'quality_profiles')).toBe(22);
    expect(count(db, 'custom_format_conditions')).toBe(1431);
    expect(count(db, 'quality_profile_custom_formats')).toBe(1459);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('produces base and resolved databases that are independent copies', () => {
    expect(count(replay.base, 'custom_formats')).toBe(200);
    expect(replay.base).not.toBe(replay.resolved);
    expect(entityNames(replay.base, 'quality_profile')).toEqual(entityNames(replay.resolved, 'quality_profile'));
  });

  it('reports progress up to the total', () => {
    const last = progress[progress.length - 1];
    expect(last.done).toBe(last.total);
    expect(last.total).toBe(replay.stats.ops);
    for (let i = 1; i < progress.length; i++) expect(progress[i].done).toBeGreaterThanOrEqual(progress[i - 1].done);
  });

  it('seeds every quality and language the repository references', () => {
    const seededQualities = new Set(QUALITY_SEEDS.map((q) => q.name));
    const seededLanguages = new Set(LANGUAGE_SEEDS);
    const db = replay.resolved;
    const usedQualities = db
      .prepare(
        `SELECT quality_name FROM quality_profile_qualities WHERE quality_name IS NOT NULL
         UNION SELECT quality_name FROM quality_group_members
         UNION SELECT quality_name FROM radarr_quality_definitions UNION SELECT quality_name FROM sonarr_quality_definitions`,
      )
      .pluck()
      .all() as string[];
    const usedLanguages = db.prepare('SELECT language_name FROM condition_languages UNION SELECT language_name FROM quality_profile_languages').pluck().all() as string[];
    expect(usedQualities.filter((q) => !seededQualities.has(q))).toEqual([]);
    expect(usedLanguages.filter((l) => !seededLanguages.has(l))).toEqual([]);
    expect(usedQualities).toEqual(expect.arrayContaining(['HDTV-480p', 'Raw-HD', 'BR-DISK', 'Remux-2160p']));
  });

  it('maps Sonarr API names where they differ, and has no Sonarr CAM', () => {
    const api = (q: string, arr: string) =>
      replay.resolved.prepare('SELECT api_name FROM quality_api_mappings WHERE quality_name = ? AND arr_type = ?').pluck().get(q, arr);
    expect(api('Remux-1080p', 'sonarr')).toBe('Bluray-1080p Remux');
    expect(api('Remux-1080p', 'radarr')).toBe('Remux-1080p');
    expect(api('Raw-HD', 'sonarr')).toBe('Raw-HD');
    expect(api('CAM', 'sonarr')).toBeUndefined();
    expect(api('FLAC 24bit', 'lidarr')).toBe('FLAC 24bit');
  });

  it('captured lineage for every field of every custom format and quality profile', () => {
    for (const type of ['customFormat', 'qualityProfile', 'regularExpression'] as const) {
      const list = listResolved(replay, type, { includeLineage: true });
      const unresolved = list.entities.flatMap((e) => e.lineage!.filter((l) => l.status !== 'resolved').map((l) => `${e.name}: ${l.path}`));
      expect({ type, unresolved }).toEqual({ type, unresolved: [] });
    }
  });

  it('attributes a renamed custom format name to the renaming op', () => {
    const rename = trashRepository().base.find((o) => o.sql.includes(`update "custom_formats" set "name" = 'HDR10' where "name" = 'HDR'`))!;
    expect(rename.file).toBe('ops/88.change-hdr-to-hdr10-to-resolve-database-priority-drift-issue.sql');
    const lineage = resolveEntity(replay, 'custom_format', 'HDR10', { includeLineage: true }).lineage!;
    expect(lineage.find((l) => l.path === 'name')).toMatchObject({ status: 'resolved', sourceLayer: 'base', opId: rename.id, explicit: true, fileOp: null });
    expect(lineage.find((l) => l.path === 'description')).toMatchObject({ sourceLayer: 'base', opId: 1 });
  });

  it('applied the cascading renames (regex DV -> Dolby Vision, custom format HDR -> HDR10)', () => {
    const db = replay.resolved;
    expect(db.prepare("SELECT COUNT(*) FROM condition_patterns WHERE regular_expression_name = 'DV'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT COUNT(*) FROM custom_formats WHERE name = 'HDR'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT COUNT(*) FROM quality_profile_custom_formats WHERE custom_format_name = 'HDR10'").pluck().get()).toBeGreaterThan(0);
  });
});

describeWithShared(['reference', 'pcd-schema.sql'], 'schema compatibility with PCD schema 1.x', () => {
  it('has every table and column of the reference schema', () => {
    const reference = new Database(':memory:');
    reference.exec(fs.readFileSync(sharedPath('reference', 'pcd-schema.sql'), 'utf8'));
    const ours = new Database(':memory:');
    ours.exec(SCHEMA_DDL);
    const tables = reference.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    const columns = (db: Database.Database, t: string) => (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name).sort();
    for (const t of tables) expect({ table: t, columns: columns(ours, t) }).toEqual({ table: t, columns: columns(reference, t) });
  });
});
