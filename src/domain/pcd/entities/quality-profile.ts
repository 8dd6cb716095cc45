/**
 * quality_profile: app-agnostic settings, an ordered quality list (single qualities and groups of
 * this profile), languages, tags and custom format scores per app family.
 *
 * `qualities` keeps PCD's order: position ascending, i.e. the most preferred item first (the apps'
 * APIs list items lowest first; a sync reverses).
 */
import { z } from 'zod';
import { formatPath } from '../../diff/path';
import { ARR_TYPES, fromPcdArrType, toPcdArrType } from '../../arr-types';
import { bool, ensureTags, entityName, flag, num, rowsOf, rowsSource, Sources, str, strOrNull, tagName, uniqueStrings } from './common';
import type { EntityModel, Reference, Row } from './types';

const qualityName = z.string().min(1, 'must not be empty').max(100);

const qualityItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('quality'), name: qualityName, enabled: z.boolean(), upgradeUntil: z.boolean() }).strict(),
  z
    .object({
      type: z.literal('group'),
      name: entityName,
      enabled: z.boolean(),
      upgradeUntil: z.boolean(),
      members: z.array(qualityName).min(1, 'a group needs at least one quality'),
    })
    .strict(),
]);
export type QualityProfileItem = z.infer<typeof qualityItemSchema>;

const scoreSchema = z.object({ name: entityName, score: z.number().int() }).strict();
export type CustomFormatScore = z.infer<typeof scoreSchema>;

/** Score scopes: 'all' applies to every family and is never expanded into per-app values. */
export const SCORE_SCOPES = ['all', ...ARR_TYPES] as const;

export const qualityProfileSchema = z
  .object({
    name: entityName,
    description: z.string().nullable(),
    upgradesAllowed: z.boolean(),
    minimumCustomFormatScore: z.number().int(),
    upgradeUntilScore: z.number().int(),
    upgradeScoreIncrement: z.number().int().min(1),
    tags: z.array(tagName),
    languages: z.array(z.object({ name: z.string().min(1).max(30), type: z.enum(['must', 'only', 'not', 'simple']) }).strict()),
    qualities: z.array(qualityItemSchema),
    customFormats: z
      .object({
        all: z.array(scoreSchema),
        movie_app: z.array(scoreSchema),
        series_app: z.array(scoreSchema),
        music_app: z.array(scoreSchema),
      })
      .strict(),
  })
  .strict();

export type QualityProfileData = z.infer<typeof qualityProfileSchema>;

const ROOT = 'quality_profiles';
const TAGS = 'quality_profile_tags';
const LANGUAGES = 'quality_profile_languages';
const GROUPS = 'quality_groups';
const MEMBERS = 'quality_group_members';
const ITEMS = 'quality_profile_qualities';
const SCORES = 'quality_profile_custom_formats';

export const qualityProfileModel: EntityModel<QualityProfileData> = {
  type: 'quality_profile',
  family: null,
  rootTable: ROOT,
  rootless: false,
  tables: [
    { table: ROOT, ownerColumn: 'name' },
    { table: TAGS, ownerColumn: 'quality_profile_name', orderBy: 'tag_name' },
    { table: LANGUAGES, ownerColumn: 'quality_profile_name', orderBy: 'language_name' },
    { table: GROUPS, ownerColumn: 'quality_profile_name' },
    { table: MEMBERS, ownerColumn: 'quality_profile_name', orderBy: 'quality_group_name, position, rowid' },
    { table: ITEMS, ownerColumn: 'quality_profile_name', orderBy: 'position, rowid' },
    { table: SCORES, ownerColumn: 'quality_profile_name', orderBy: 'arr_type, custom_format_name' },
  ],
  schema: qualityProfileSchema,
  diffOptions: {
    arrays: {
      qualities: { key: 'name', ordered: true },
      'qualities.*.members': { key: null },
      languages: { key: 'name' },
      'customFormats.*': { key: 'name' },
    },
  },

  toRows(d) {
    const qp = d.name;
    const rows: Row[] = [
      {
        table: ROOT,
        values: {
          name: qp,
          description: d.description,
          upgrades_allowed: flag(d.upgradesAllowed),
          minimum_custom_format_score: d.minimumCustomFormatScore,
          upgrade_until_score: d.upgradeUntilScore,
          upgrade_score_increment: d.upgradeScoreIncrement,
        },
      },
      ...[...d.tags].sort().map((t): Row => ({ table: TAGS, values: { quality_profile_name: qp, tag_name: t } })),
      ...d.languages.map((l): Row => ({ table: LANGUAGES, values: { quality_profile_name: qp, language_name: l.name, type: l.type } })),
    ];
    const groups: Row[] = [];
    const members: Row[] = [];
    const items: Row[] = [];
    d.qualities.forEach((item, position) => {
      if (item.type === 'group') {
        groups.push({ table: GROUPS, values: { quality_profile_name: qp, name: item.name } });
        item.members.forEach((m, i) =>
          members.push({ table: MEMBERS, values: { quality_profile_name: qp, quality_group_name: item.name, quality_name: m, position: i } }),
        );
      }
      items.push({
        table: ITEMS,
        values: {
          quality_profile_name: qp,
          quality_name: item.type === 'quality' ? item.name : null,
          quality_group_name: item.type === 'group' ? item.name : null,
          position,
          enabled: flag(item.enabled),
          upgrade_until: flag(item.upgradeUntil),
        },
      });
    });
    rows.push(...groups, ...members, ...items);
    for (const scope of SCORE_SCOPES) {
      for (const s of d.customFormats[scope]) {
        rows.push({ table: SCORES, values: { quality_profile_name: qp, custom_format_name: s.name, arr_type: toPcdArrType(scope), score: s.score } });
      }
    }
    return rows;
  },

  fromRows(name, rows) {
    const root = rowsOf(rows, ROOT)[0];
    const s = new Sources();
    s.column('name', root, 'name');
    s.column('description', root, 'description');
    s.column('upgradesAllowed', root, 'upgrades_allowed');
    s.column('minimumCustomFormatScore', root, 'minimum_custom_format_score');
    s.column('upgradeUntilScore', root, 'upgrade_until_score');
    s.column('upgradeScoreIncrement', root, 'upgrade_score_increment');

    const tags = rowsOf(rows, TAGS);
    s.set('tags', rowsSource(TAGS, tags, name));

    const languages = rowsOf(rows, LANGUAGES).map((r) => {
      const l = { name: str(r.values.language_name), type: str(r.values.type) as QualityProfileData['languages'][number]['type'] };
      s.column(['languages', l.name, 'type'], r, 'type');
      return l;
    });

    const memberRows = new Map<string, Row[]>();
    for (const r of rowsOf(rows, MEMBERS)) {
      const g = str(r.values.quality_group_name);
      memberRows.set(g, [...(memberRows.get(g) ?? []), r]);
    }
    const itemRows = rowsOf(rows, ITEMS);
    s.set('qualities', rowsSource(ITEMS, itemRows, name, ['position']));
    const qualities = itemRows.map((r): QualityProfileItem => {
      const group = strOrNull(r.values.quality_group_name);
      const itemName = group ?? str(r.values.quality_name);
      const path = (field: string) => ['qualities', itemName, field];
      s.column(path('type'), r, group !== null ? 'quality_group_name' : 'quality_name');
      s.column(path('enabled'), r, 'enabled');
      s.column(path('upgradeUntil'), r, 'upgrade_until');
      const enabled = bool(r.values.enabled);
      const upgradeUntil = bool(r.values.upgrade_until);
      if (group === null) return { type: 'quality', name: itemName, enabled, upgradeUntil };
      const mrows = memberRows.get(group) ?? [];
      s.set(formatPath(path('members')), rowsSource(MEMBERS, mrows, name));
      return { type: 'group', name: itemName, enabled, upgradeUntil, members: mrows.map((m) => str(m.values.quality_name)) };
    });

    const customFormats: QualityProfileData['customFormats'] = { all: [], movie_app: [], series_app: [], music_app: [] };
    for (const r of rowsOf(rows, SCORES)) {
      const scope = fromPcdArrType(str(r.values.arr_type));
      if (scope === null) continue;
      const cf = str(r.values.custom_format_name);
      customFormats[scope].push({ name: cf, score: num(r.values.score) });
      s.column(['customFormats', scope, cf, 'score'], r, 'score');
    }
    for (const scope of SCORE_SCOPES) customFormats[scope].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    return {
      data: {
        name: str(root.values.name),
        description: strOrNull(root.values.description),
        upgradesAllowed: bool(root.values.upgrades_allowed),
        minimumCustomFormatScore: num(root.values.minimum_custom_format_score),
        upgradeUntilScore: num(root.values.upgrade_until_score),
        upgradeScoreIncrement: num(root.values.upgrade_score_increment),
        tags: tags.map((r) => str(r.values.tag_name)).sort(),
        languages,
        qualities,
        customFormats,
      },
      sources: s.map,
    };
  },

  references(d) {
    const refs: Reference[] = [];
    for (const item of d.qualities) {
      if (item.type === 'quality') refs.push({ kind: 'quality', name: item.name, path: formatPath(['qualities', item.name]) });
      else item.members.forEach((m) => refs.push({ kind: 'quality', name: m, path: formatPath(['qualities', item.name, 'members']) }));
    }
    for (const l of d.languages) refs.push({ kind: 'language', name: l.name, path: formatPath(['languages', l.name]) });
    for (const scope of SCORE_SCOPES) {
      for (const sc of d.customFormats[scope]) refs.push({ kind: 'custom_format', name: sc.name, path: formatPath(['customFormats', scope, sc.name]) });
    }
    return refs;
  },

  validate(d) {
    const errors = [...uniqueStrings(d.tags, 'tags'), ...uniqueStrings(d.languages.map((l) => l.name), 'languages')];
    errors.push(...uniqueStrings(d.qualities.map((q) => q.name), 'qualities').map((e) => e.replace('duplicate value', 'duplicate item name')));
    const seen = new Map<string, string>();
    for (const item of d.qualities) {
      for (const q of item.type === 'quality' ? [item.name] : item.members) {
        const where = item.type === 'quality' ? 'the list' : `group "${item.name}"`;
        if (seen.has(q) && item.type === 'group') errors.push(`${formatPath(['qualities', item.name, 'members'])}: quality "${q}" is already listed in ${seen.get(q)}`);
        else if (seen.has(q)) errors.push(`${formatPath(['qualities', item.name])}: quality "${q}" is already listed in ${seen.get(q)}`);
        seen.set(q, where);
      }
    }
    if (d.qualities.filter((q) => q.upgradeUntil).length > 1) errors.push('qualities: at most one item may have upgradeUntil');
    for (const scope of SCORE_SCOPES) {
      errors.push(...uniqueStrings(d.customFormats[scope].map((c) => c.name), formatPath(['customFormats', scope])));
    }
    return errors;
  },

  prerequisites: (d) => ensureTags(d.tags),
};
