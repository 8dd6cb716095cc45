/**
 * regular_expression: a named pattern referenced by release title/group/edition conditions.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { ensureTags, entityName, rowsOf, Sources, str, strOrNull, rowsSource, tagName, uniqueStrings } from './common';
import type { EntityModel, Row } from './types';

export const regularExpressionSchema = z
  .object({
    name: entityName,
    pattern: z.string().min(1, 'must not be empty'),
    regex101Id: z.string().max(50).nullable(),
    description: z.string().nullable(),
    tags: z.array(tagName),
  })
  .strict();

export type RegularExpressionData = z.infer<typeof regularExpressionSchema>;

const ROOT = 'regular_expressions';
const TAGS = 'regular_expression_tags';

export const regularExpressionModel: EntityModel<RegularExpressionData> = {
  type: 'regular_expression',
  family: null,
  rootTable: ROOT,
  rootless: false,
  tables: [
    { table: ROOT, ownerColumn: 'name' },
    { table: TAGS, ownerColumn: 'regular_expression_name', orderBy: 'tag_name' },
  ],
  schema: regularExpressionSchema,
  diffOptions: {},
  toRows(d) {
    return [
      { table: ROOT, values: { name: d.name, pattern: d.pattern, regex101_id: d.regex101Id, description: d.description } },
      ...[...d.tags].sort().map((t): Row => ({ table: TAGS, values: { regular_expression_name: d.name, tag_name: t } })),
    ];
  },
  fromRows(name, rows) {
    const root = rowsOf(rows, ROOT)[0];
    const tags = rowsOf(rows, TAGS);
    const s = new Sources();
    s.column('name', root, 'name');
    s.column('pattern', root, 'pattern');
    s.column('regex101Id', root, 'regex101_id');
    s.column('description', root, 'description');
    s.set('tags', rowsSource(TAGS, tags, name));
    return {
      data: {
        name: str(root.values.name),
        pattern: str(root.values.pattern),
        regex101Id: strOrNull(root.values.regex101_id),
        description: strOrNull(root.values.description),
        tags: tags.map((r) => str(r.values.tag_name)).sort(),
      },
      sources: s.map,
    };
  },
  references: () => [],
  validate: (d) => uniqueStrings(d.tags, 'tags'),
  prerequisites: (d) => ensureTags(d.tags),
};

/** Every regular expression's pattern by name, in one query (evaluation reads them all). */
export function regularExpressionPatterns(db: Database.Database): Record<string, string> {
  const rows = db.prepare(`SELECT name, pattern FROM "${ROOT}"`).all() as { name: string; pattern: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, String(r.pattern)]));
}
