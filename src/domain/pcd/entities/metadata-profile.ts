/**
 * music_app_metadata_profile: which Lidarr primary album types, secondary album types and release
 * statuses a profile allows. Lidarr's API takes every type in every list, so a payload must list
 * each exactly once; the order of a list is kept (position).
 */
import { z } from 'zod';
import { formatPath } from '../../diff/path';
import { LIDARR_PRIMARY_ALBUM_TYPES, LIDARR_RELEASE_STATUSES, LIDARR_SECONDARY_ALBUM_TYPES } from '../schema/tables';
import { bool, entityName, flag, rowsOf, rowsSource, Sources, str, strOrNull } from './common';
import type { EntityModel, Row } from './types';

const item = (names: readonly [string, ...string[]]) => z.object({ name: z.enum(names), allowed: z.boolean() }).strict();

export const metadataProfileSchema = z
  .object({
    name: entityName.refine((n) => n !== 'None', 'the name "None" is reserved by Lidarr'),
    description: z.string().nullable(),
    primaryAlbumTypes: z.array(item(LIDARR_PRIMARY_ALBUM_TYPES as unknown as [string, ...string[]])),
    secondaryAlbumTypes: z.array(item(LIDARR_SECONDARY_ALBUM_TYPES as unknown as [string, ...string[]])),
    releaseStatuses: z.array(item(LIDARR_RELEASE_STATUSES as unknown as [string, ...string[]])),
  })
  .strict();

export type MetadataProfileData = z.infer<typeof metadataProfileSchema>;

const ROOT = 'lidarr_metadata_profiles';
/** List field -> child table, its name column and the complete set of Lidarr names. */
export const METADATA_LISTS = [
  { field: 'primaryAlbumTypes', table: 'lidarr_metadata_profile_primary_types', column: 'type_name', all: LIDARR_PRIMARY_ALBUM_TYPES },
  { field: 'secondaryAlbumTypes', table: 'lidarr_metadata_profile_secondary_types', column: 'type_name', all: LIDARR_SECONDARY_ALBUM_TYPES },
  { field: 'releaseStatuses', table: 'lidarr_metadata_profile_release_statuses', column: 'status_name', all: LIDARR_RELEASE_STATUSES },
] as const;

export const metadataProfileModel: EntityModel<MetadataProfileData> = {
  type: 'music_app_metadata_profile',
  family: 'music_app',
  rootTable: ROOT,
  rootless: false,
  tables: [
    { table: ROOT, ownerColumn: 'name' },
    ...METADATA_LISTS.map((l) => ({ table: l.table, ownerColumn: 'metadata_profile_name', orderBy: 'position, rowid' })),
  ],
  schema: metadataProfileSchema,
  diffOptions: {
    arrays: Object.fromEntries(METADATA_LISTS.map((l) => [l.field, { key: 'name', ordered: true }])),
  },
  toRows(d) {
    const rows: Row[] = [{ table: ROOT, values: { name: d.name, description: d.description } }];
    for (const l of METADATA_LISTS) {
      d[l.field].forEach((t, position) =>
        rows.push({ table: l.table, values: { metadata_profile_name: d.name, [l.column]: t.name, allowed: flag(t.allowed), position } }),
      );
    }
    return rows;
  },
  fromRows(name, rows) {
    const root = rowsOf(rows, ROOT)[0];
    const s = new Sources();
    s.column('name', root, 'name');
    s.column('description', root, 'description');
    const data: Record<string, unknown> = { name: str(root.values.name), description: strOrNull(root.values.description) };
    for (const l of METADATA_LISTS) {
      const mine = rowsOf(rows, l.table);
      s.set(l.field, rowsSource(l.table, mine, name, ['position']));
      data[l.field] = mine.map((r) => {
        const typeName = str(r.values[l.column]);
        s.column(formatPath([l.field, typeName, 'allowed']), r, 'allowed');
        return { name: typeName, allowed: bool(r.values.allowed) };
      });
    }
    return { data: data as MetadataProfileData, sources: s.map };
  },
  references: () => [],
  validate(d) {
    const errors: string[] = [];
    for (const l of METADATA_LISTS) {
      const names = d[l.field].map((t) => t.name);
      const missing = l.all.filter((n) => !names.includes(n));
      if (missing.length) errors.push(`${l.field}: missing ${missing.map((m) => `"${m}"`).join(', ')} (every Lidarr value must be listed once)`);
      const dup = names.filter((n, i) => names.indexOf(n) !== i);
      if (dup.length) errors.push(`${l.field}: duplicate ${[...new Set(dup)].map((m) => `"${m}"`).join(', ')}`);
    }
    return errors;
  },
};
