/**
 * custom_format: conditions (each stored as a row of custom_format_conditions plus one row in the
 * detail table of its type), tags and test cases.
 */
import { z } from 'zod';
import { formatPath } from '../../diff/path';
import { APP_OF, fromPcdArrType, toPcdArrType, type ArrType, type ArrTypeOrAll } from '../../arr-types';
import type { SqlValue } from '../schema/registry';
import {
  bool,
  ensureTags,
  entityName,
  flag,
  numOrNull,
  rowsOf,
  rowsSource,
  Sources,
  str,
  strOrNull,
  tagName,
  uniqueStrings,
} from './common';
import type { EntityModel, Reference, Row } from './types';

const ARR_TYPE_OR_ALL = z.enum(['movie_app', 'series_app', 'music_app', 'all']);

type DetailKind = 'text' | 'bool' | 'numOrNull';
interface DetailField {
  field: string;
  column: string;
  kind: DetailKind;
}

interface ConditionTypeSpec {
  table: string;
  fields: DetailField[];
  /** App families whose custom formats implement this condition type. */
  apps: readonly ArrType[];
}

const ALL_APPS: readonly ArrType[] = ['movie_app', 'series_app', 'music_app'];
const pattern: DetailField[] = [{ field: 'regularExpression', column: 'regular_expression_name', kind: 'text' }];

/** Condition types, their detail tables and which apps support them. */
export const CONDITION_TYPES: Readonly<Record<string, ConditionTypeSpec>> = {
  release_title: { table: 'condition_patterns', fields: pattern, apps: ALL_APPS },
  release_group: { table: 'condition_patterns', fields: pattern, apps: ALL_APPS },
  edition: { table: 'condition_patterns', fields: pattern, apps: ['movie_app'] },
  language: {
    table: 'condition_languages',
    fields: [
      { field: 'language', column: 'language_name', kind: 'text' },
      { field: 'exceptLanguage', column: 'except_language', kind: 'bool' },
    ],
    apps: ['movie_app', 'series_app'],
  },
  indexer_flag: { table: 'condition_indexer_flags', fields: [{ field: 'flag', column: 'flag', kind: 'text' }], apps: ['movie_app', 'series_app'] },
  source: { table: 'condition_sources', fields: [{ field: 'source', column: 'source', kind: 'text' }], apps: ['movie_app', 'series_app'] },
  resolution: { table: 'condition_resolutions', fields: [{ field: 'resolution', column: 'resolution', kind: 'text' }], apps: ['movie_app', 'series_app'] },
  quality_modifier: {
    table: 'condition_quality_modifiers',
    fields: [{ field: 'qualityModifier', column: 'quality_modifier', kind: 'text' }],
    apps: ['movie_app'],
  },
  size: {
    table: 'condition_sizes',
    fields: [
      { field: 'minBytes', column: 'min_bytes', kind: 'numOrNull' },
      { field: 'maxBytes', column: 'max_bytes', kind: 'numOrNull' },
    ],
    apps: ALL_APPS,
  },
  release_type: { table: 'condition_release_types', fields: [{ field: 'releaseType', column: 'release_type', kind: 'text' }], apps: ['series_app'] },
  year: {
    table: 'condition_years',
    fields: [
      { field: 'minYear', column: 'min_year', kind: 'numOrNull' },
      { field: 'maxYear', column: 'max_year', kind: 'numOrNull' },
    ],
    apps: ['movie_app'],
  },
};

export const CONDITION_DETAIL_TABLES = [...new Set(Object.values(CONDITION_TYPES).map((t) => t.table))];

const base = {
  name: entityName,
  arrType: ARR_TYPE_OR_ALL,
  negate: z.boolean(),
  required: z.boolean(),
};
const text = z.string().min(1, 'must not be empty');
const bytes = z.number().int().nonnegative().nullable();
const year = z.number().int().min(0).max(9999).nullable();

const conditionSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('release_title'), regularExpression: text }).strict(),
  z.object({ ...base, type: z.literal('release_group'), regularExpression: text }).strict(),
  z.object({ ...base, type: z.literal('edition'), regularExpression: text }).strict(),
  z.object({ ...base, type: z.literal('language'), language: text, exceptLanguage: z.boolean() }).strict(),
  z.object({ ...base, type: z.literal('indexer_flag'), flag: text }).strict(),
  z.object({ ...base, type: z.literal('source'), source: text }).strict(),
  z.object({ ...base, type: z.literal('resolution'), resolution: text }).strict(),
  z.object({ ...base, type: z.literal('quality_modifier'), qualityModifier: text }).strict(),
  z.object({ ...base, type: z.literal('size'), minBytes: bytes, maxBytes: bytes }).strict(),
  z.object({ ...base, type: z.literal('release_type'), releaseType: text }).strict(),
  z.object({ ...base, type: z.literal('year'), minYear: year, maxYear: year }).strict(),
]);

export type CustomFormatCondition = z.infer<typeof conditionSchema>;

const testSchema = z
  .object({
    title: z.string().min(1, 'must not be empty'),
    type: z.enum(['movie', 'series', 'album']),
    shouldMatch: z.boolean(),
    description: z.string().nullable(),
  })
  .strict();

export type CustomFormatTest = z.infer<typeof testSchema>;

export const customFormatSchema = z
  .object({
    name: entityName,
    description: z.string().nullable(),
    includeInRename: z.boolean(),
    tags: z.array(tagName),
    conditions: z.array(conditionSchema),
    tests: z.array(testSchema),
  })
  .strict();

export type CustomFormatData = z.infer<typeof customFormatSchema>;

const ROOT = 'custom_formats';
const TAGS = 'custom_format_tags';
const CONDITIONS = 'custom_format_conditions';
const TESTS = 'custom_format_tests';

const testKey = (t: unknown) => {
  const v = t as { type?: unknown; title?: unknown };
  return `${String(v.type)}:${String(v.title)}`;
};

function readDetail(kind: DetailKind, v: SqlValue): unknown {
  if (kind === 'bool') return bool(v);
  if (kind === 'numOrNull') return numOrNull(v);
  return v === null ? null : str(v);
}

function writeDetail(kind: DetailKind, v: unknown): SqlValue {
  if (kind === 'bool') return flag(v as boolean);
  return (v as SqlValue) ?? null;
}

/**
 * Condition names are unique within a format, yet two app families may each need a condition of the
 * same name (the guide's Radarr and Sonarr "Extras" differ in pattern). The second one is stored as
 * "<name> (<App>)" and scoped to that app (the convention of the TRaSH PCD too); the app receives
 * it under its plain name, unless another condition it receives already has that name.
 */
export function familyScopedConditionName(name: string, arrType: ArrType): string {
  return `${name} (${APP_OF[arrType].label})`;
}

/** Condition name -> the specification name the app of `arrType` receives, for the conditions that apply to it. */
export function specificationNames(conditions: readonly Pick<CustomFormatCondition, 'name' | 'arrType'>[], arrType: ArrType): Map<string, string> {
  const applying = conditions.filter((c) => c.arrType === 'all' || c.arrType === arrType);
  const names = new Set(applying.map((c) => c.name));
  const suffix = familyScopedConditionName('', arrType);
  return new Map(
    applying.map((c) => {
      const plain = c.arrType === arrType && c.name.endsWith(suffix) ? c.name.slice(0, -suffix.length) : c.name;
      return [c.name, plain !== c.name && plain !== '' && !names.has(plain) ? plain : c.name];
    }),
  );
}

export const customFormatModel: EntityModel<CustomFormatData> = {
  type: 'custom_format',
  family: null,
  rootTable: ROOT,
  rootless: false,
  tables: [
    { table: ROOT, ownerColumn: 'name' },
    { table: TAGS, ownerColumn: 'custom_format_name', orderBy: 'tag_name' },
    { table: CONDITIONS, ownerColumn: 'custom_format_name' },
    ...CONDITION_DETAIL_TABLES.map((table) => ({ table, ownerColumn: 'custom_format_name' })),
    { table: TESTS, ownerColumn: 'custom_format_name' },
  ],
  schema: customFormatSchema,
  diffOptions: { arrays: { conditions: { key: 'name' }, tests: { key: testKey } } },

  toRows(d) {
    const rows: Row[] = [
      { table: ROOT, values: { name: d.name, description: d.description, include_in_rename: flag(d.includeInRename) } },
      ...[...d.tags].sort().map((t): Row => ({ table: TAGS, values: { custom_format_name: d.name, tag_name: t } })),
    ];
    const details: Row[] = [];
    for (const c of d.conditions) {
      rows.push({
        table: CONDITIONS,
        values: {
          custom_format_name: d.name,
          name: c.name,
          type: c.type,
          arr_type: toPcdArrType(c.arrType as ArrTypeOrAll),
          negate: flag(c.negate),
          required: flag(c.required),
        },
      });
      const spec = CONDITION_TYPES[c.type];
      const values: Record<string, SqlValue> = { custom_format_name: d.name, condition_name: c.name };
      for (const f of spec.fields) values[f.column] = writeDetail(f.kind, (c as Record<string, unknown>)[f.field]);
      details.push({ table: spec.table, values });
    }
    rows.push(...details);
    for (const t of d.tests) {
      rows.push({
        table: TESTS,
        values: { custom_format_name: d.name, title: t.title, type: t.type, should_match: flag(t.shouldMatch), description: t.description },
      });
    }
    return rows;
  },

  fromRows(name, rows) {
    const root = rowsOf(rows, ROOT)[0];
    const tags = rowsOf(rows, TAGS);
    const s = new Sources();
    s.column('name', root, 'name');
    s.column('description', root, 'description');
    s.column('includeInRename', root, 'include_in_rename');
    s.set('tags', rowsSource(TAGS, tags, name));

    const detailRows = new Map<string, Row>();
    for (const r of rows) {
      if (CONDITION_DETAIL_TABLES.includes(r.table)) detailRows.set(`${r.table}\u0000${str(r.values.condition_name)}`, r);
    }
    const conditions = rowsOf(rows, CONDITIONS).map((r) => {
      const cname = str(r.values.name);
      const type = str(r.values.type);
      const c: Record<string, unknown> = {
        name: cname,
        type,
        arrType: fromPcdArrType(str(r.values.arr_type)) ?? str(r.values.arr_type),
        negate: bool(r.values.negate),
        required: bool(r.values.required),
      };
      for (const [field, column] of [
        ['type', 'type'],
        ['arrType', 'arr_type'],
        ['negate', 'negate'],
        ['required', 'required'],
      ]) {
        s.column(formatPath(['conditions', cname, field]), r, column);
      }
      const spec = CONDITION_TYPES[type];
      if (spec) {
        const detail = detailRows.get(`${spec.table}\u0000${cname}`);
        for (const f of spec.fields) {
          c[f.field] = detail ? readDetail(f.kind, detail.values[f.column] ?? null) : null;
          s.column(formatPath(['conditions', cname, f.field]), detail, f.column);
        }
      }
      return c as CustomFormatCondition;
    });

    const tests = rowsOf(rows, TESTS).map((r) => {
      const t: CustomFormatTest = {
        title: str(r.values.title),
        type: str(r.values.type) as CustomFormatTest['type'],
        shouldMatch: bool(r.values.should_match),
        description: strOrNull(r.values.description),
      };
      const key = testKey(t);
      s.column(formatPath(['tests', key, 'title']), r, 'title');
      s.column(formatPath(['tests', key, 'type']), r, 'type');
      s.column(formatPath(['tests', key, 'shouldMatch']), r, 'should_match');
      s.column(formatPath(['tests', key, 'description']), r, 'description');
      return t;
    });

    return {
      data: {
        name: str(root.values.name),
        description: strOrNull(root.values.description),
        includeInRename: bool(root.values.include_in_rename),
        tags: tags.map((r) => str(r.values.tag_name)).sort(),
        conditions,
        tests,
      },
      sources: s.map,
    };
  },

  references(d) {
    const refs: Reference[] = [];
    for (const c of d.conditions) {
      if ('regularExpression' in c) refs.push({ kind: 'regular_expression', name: c.regularExpression, path: formatPath(['conditions', c.name, 'regularExpression']) });
      if (c.type === 'language') refs.push({ kind: 'language', name: c.language, path: formatPath(['conditions', c.name, 'language']) });
    }
    return refs;
  },

  validate(d) {
    const errors = [
      ...uniqueStrings(d.tags, 'tags'),
      ...uniqueStrings(
        d.conditions.map((c) => c.name),
        'conditions',
      ).map((e) => e.replace('duplicate value', 'duplicate condition name')),
      ...uniqueStrings(d.tests.map(testKey), 'tests').map((e) => e.replace('duplicate value', 'duplicate test (type:title)')),
    ];
    for (const c of d.conditions) {
      const spec = CONDITION_TYPES[c.type];
      if (c.arrType !== 'all' && !spec.apps.includes(c.arrType)) {
        errors.push(`${formatPath(['conditions', c.name, 'type'])}: ${c.type} conditions are not supported by ${c.arrType}`);
      }
      if (c.type === 'size' && c.minBytes !== null && c.maxBytes !== null && c.minBytes > c.maxBytes) {
        errors.push(`${formatPath(['conditions', c.name, 'minBytes'])}: must not exceed maxBytes`);
      }
      if (c.type === 'year' && c.minYear !== null && c.maxYear !== null && c.minYear > c.maxYear) {
        errors.push(`${formatPath(['conditions', c.name, 'minYear'])}: must not exceed maxYear`);
      }
    }
    return errors;
  },

  prerequisites: (d) => ensureTags(d.tags),
};

