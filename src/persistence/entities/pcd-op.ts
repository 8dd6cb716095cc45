import { EntitySchema } from '@mikro-orm/core';

export type PcdOpLayer = 'schema' | 'base' | 'tweaks' | 'user';

/**
 * One operation of a database layer, kept in the application database so that any process can
 * rebuild a cache from it alone:
 * - schema: ops of a fetched schema dependency (absent when the bundled schema stands in),
 * - base: imported from the repository's ops/ files on pull (ids are lineage "establishing op ids"),
 * - tweaks: imported from tweaks/ files (lineage reports them by file and position),
 * - user: edits made through arrgo, never written to the repository.
 */
export class PcdOp {
  id!: number;
  databaseId!: number;
  layer!: PcdOpLayer;
  /** File layers and base: the file name (ops/, tweaks/, or the schema dependency's). User: null. */
  file: string | null = null;
  /** Replay order within the layer (files by numeric prefix, then position; user ops by creation). */
  seq!: number;
  /** 1-based position within the file (file layers and base); user ops repeat seq. */
  position!: number;
  /** The `-- --- BEGIN op <id>` marker id of a base op, when present. */
  markerId: string | null = null;
  label: string | null = null;
  sql!: string;
  sha256!: string;
  /** User ops: what the op edits (portable entity type and name) and how. */
  targetType: string | null = null;
  targetName: string | null = null;
  kind: string | null = null;
  /** User ops: the rollback that superseded the op (kept so that rollback can itself be rolled back). */
  supersededBy: number | null = null;
  createdAt: Date = new Date();
}

export const PcdOpSchema = new EntitySchema<PcdOp>({
  class: PcdOp,
  tableName: 'pcd_ops',
  indexes: [{ properties: ['databaseId', 'layer', 'seq'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    databaseId: { type: 'integer', fieldName: 'database_id' },
    layer: { type: 'string', length: 10 },
    file: { type: 'string', length: 300, nullable: true },
    seq: { type: 'integer' },
    position: { type: 'integer' },
    markerId: { type: 'string', length: 40, nullable: true, fieldName: 'marker_id' },
    label: { type: 'string', length: 500, nullable: true },
    sql: { type: 'text' },
    sha256: { type: 'string', length: 64 },
    targetType: { type: 'string', length: 60, nullable: true, fieldName: 'target_type' },
    targetName: { type: 'string', length: 200, nullable: true, fieldName: 'target_name' },
    kind: { type: 'string', length: 20, nullable: true },
    supersededBy: { type: 'integer', nullable: true, fieldName: 'superseded_by' },
    createdAt: { type: 'datetime', fieldName: 'created_at', onCreate: () => new Date() },
  },
});
