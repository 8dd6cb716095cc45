import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { initOrm, migrate, type Orm } from '../persistence/orm';
import { findPostgresBin, startTempCluster, type TempCluster } from '../platform/postgres-cluster';
import { listSyncRuns } from '../services/sync/history-service';
import { TimelineService } from '../services/timeline/timeline-service';
import { pairedTimings, type Benchmark } from './harness';
import { freePort } from './service-harness';

const EVENTS = 100_000;
const PAGE_SIZE = 50;
const PAGES = [1, 50];
const BATCH = 500;
const ROUNDS = 21;
const WARMUP = 3;

/**
 * GET /timeline over 100,000 seeded events (25,000 of each source) on SQLite and PostgreSQL,
 * page 1 and page 50, against the single-table indexed query of the same page size (the sync
 * history page: ordered by time, limit/offset, and its total count) over 100,000 sync runs.
 * Both sides answer a paginated page with its totals; the goal is at most 3x.
 *
 * Robustness on a shared machine: both sides are warmed up, then timed in ROUNDS alternating rounds
 * (pairedTimings), and each side's median is compared. On PostgreSQL both databases are vacuumed and
 * analyzed after seeding, as autovacuum does on any live database within a minute of a bulk load:
 * without statistics the planner takes a freshly loaded 25,000-row table for ~2,300 rows and sorts
 * whole tables instead of reading the (time, id) indexes, so the figure would depend on whether
 * autovacuum's cycle had run yet. SQLite is measured as arrgo runs it (no ANALYZE).
 */
export const timelineBenchmark: Benchmark = {
  name: 'timeline',
  async run(report) {
    const engines: { name: string; open: () => Promise<{ url: { kind: 'sqlite'; file: string } | { kind: 'postgresql'; url: string }; close: () => Promise<void> }> }[] = [
      { name: 'sqlite', open: async () => sqliteTarget() },
    ];
    const pg = await postgresCluster();
    if (pg) engines.push({ name: 'postgresql', open: async () => pg.database() });
    else report({ name: 'timeline postgresql', values: { skipped: 'no PostgreSQL (set BENCH_DATABASE_URL or install initdb)' } });
    try {
      for (const engine of engines) {
        const feedDb = await engine.open();
        const baseDb = await engine.open();
        const feed = await initOrm(feedDb.url);
        const base = await initOrm(baseDb.url);
        try {
          await migrate(feed);
          await migrate(base);
          await seedFeed(feed);
          await seedSyncRuns(base.em.fork(), EVENTS, 0);
          if (engine.name === 'postgresql') for (const orm of [feed, base]) await orm.em.getConnection().execute('vacuum analyze');
          for (const pageNumber of PAGES) {
            const timings = await pairedTimings(
              ROUNDS,
              () => listSyncRuns(base.em.fork(), { page: pageNumber, pageSize: PAGE_SIZE }),
              () => new TimelineService(feed.em.fork(), { temporalUiUrl: null, namespace: 'default' }).list({ page: pageNumber, pageSize: PAGE_SIZE }),
              WARMUP,
            );
            const timelineMs = timings.measured.medianMs;
            const baselineMs = timings.baseline.medianMs;
            const check = await new TimelineService(feed.em.fork(), { temporalUiUrl: null, namespace: 'default' }).list({ page: pageNumber, pageSize: PAGE_SIZE });
            const newest = at(EVENTS - 1 - (pageNumber - 1) * PAGE_SIZE).toISOString();
            if (check.items.length !== PAGE_SIZE || check.totalRecords !== EVENTS || check.items[0].occurredAt !== newest) {
              throw new Error(`timeline returned ${check.items.length} items of ${check.totalRecords}, the first at ${check.items[0]?.occurredAt} (expected ${newest})`);
            }
            report({
              name: `timeline ${engine.name} page ${pageNumber} of ${EVENTS} events`,
              values: { timelineMs, singleTableMs: baselineMs },
              ratio: { value: timelineMs / baselineMs, baseline: 'single-table indexed page + count', goal: '<= 3x' },
            });
          }
        } finally {
          await feed.close(true);
          await base.close(true);
          await feedDb.close();
          await baseDb.close();
        }
      }
    } finally {
      pg?.stop();
    }
  },
};

function sqliteTarget() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-bench-timeline-'));
  return { url: { kind: 'sqlite' as const, file: path.join(dir, 'arrgo.sqlite') }, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** BENCH_DATABASE_URL (a server the bench may create databases on), or a throwaway local cluster. */
async function postgresCluster(): Promise<{ database: () => Promise<{ url: { kind: 'postgresql'; url: string }; close: () => Promise<void> }>; stop: () => void } | null> {
  let cluster: TempCluster | null = null;
  let adminUrl = process.env.BENCH_DATABASE_URL ?? '';
  if (!adminUrl) {
    const bin = findPostgresBin();
    if (!bin) return null;
    cluster = startTempCluster(bin, await freePort());
    adminUrl = cluster.url;
  }
  const { Client } = await import('pg');
  let n = 0;
  return {
    async database() {
      const name = `arrgo_bench_${process.pid}_${n++}`;
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: { kind: 'postgresql' as const, url: url.toString() },
        async close() {
          const c = new Client({ connectionString: adminUrl });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`);
          await c.end();
        },
      };
    },
    stop: () => cluster?.stop(),
  };
}


const STATUSES = { sync: ['success', 'failed', 'partial'], canary: ['completed', 'aborted', 'failed'], rollback: ['success', 'failed'] };
/** Events one minute apart, interleaved across sources, ending now. */
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000);

async function insertRows(em: EntityManager, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const knex = (em.getConnection() as unknown as { getKnex(): import('@mikro-orm/knex').Knex }).getKnex();
  for (let i = 0; i < rows.length; i += BATCH) await knex(table).insert(rows.slice(i, i + BATCH));
}

async function seedSyncRuns(em: EntityManager, count: number, offset: number, stride = 1): Promise<void> {
  const date = (d: Date) => em.getPlatform().processDateProperty(d);
  const rows = Array.from({ length: count }, (_, k) => {
    const i = offset + k * stride;
    return {
      instance_id: (i % 40) + 1,
      instance_name: `radarr-${i % 40}`,
      arr_type: 'movie_app',
      trigger: 'manual',
      sections_attempted: JSON.stringify(['qualityProfiles']),
      sections_key: ',qualityProfiles,',
      status: STATUSES.sync[i % 3],
      sections_run: 1,
      items_synced: 3,
      failure_count: 0,
      entity_change_count: 3,
      entity_outcome_count: 3,
      outcomes: '[]',
      workflow_id: `bench-sync-${i}`,
      started_at: date(at(i)),
      created_at: date(at(i)),
    };
  });
  await insertRows(em, 'sync_runs', rows);
}

async function seedFeed(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  const date = (d: Date) => em.getPlatform().processDateProperty(d);
  const quarter = EVENTS / 4;
  await seedSyncRuns(em, quarter, 0, 4);
  await insertRows(
    em,
    'canary_rollouts',
    Array.from({ length: quarter }, (_, k) => {
      const i = 1 + k * 4;
      return {
        arr_type: 'movie_app',
        canary_instance_id: (i % 40) + 1,
        canary_instance_name: `radarr-${i % 40}`,
        targets: '[]',
        sections: JSON.stringify(['qualityProfiles']),
        partial_policy: 'gate',
        batch_size: 5,
        evidence_max_age_seconds: 600,
        status: STATUSES.canary[i % 3],
        canary_status: 'success',
        rollout_index: 0,
        rollout_results: '[]',
        trigger: 'manual',
        state_token: `t${i}`,
        workflow_id: `bench-canary-${i}`,
        created_at: date(at(i)),
        updated_at: date(at(i)),
      };
    }),
  );
  await insertRows(
    em,
    'pcd_snapshots',
    Array.from({ length: quarter }, (_, k) => {
      const i = 2 + k * 4;
      return {
        database_id: (i % 5) + 1,
        database_name: `db-${i % 5}`,
        subtype: 'edit',
        base_id: 1,
        user_ops: '[]',
        base_op_count: 100,
        tweak_op_count: 0,
        user_op_count: 1,
        checksum: '0'.repeat(64),
        created_at: date(at(i)),
      };
    }),
  );
  await insertRows(
    em,
    'pcd_rollbacks',
    Array.from({ length: quarter }, (_, k) => {
      const i = 3 + k * 4;
      return {
        database_id: (i % 5) + 1,
        database_name: `db-${i % 5}`,
        snapshot_id: 1,
        status: STATUSES.rollback[i % 2],
        trigger: 'manual',
        ops_undone: '[]',
        ops_reactivated: '[]',
        workflow_id: `bench-rollback-${i}`,
        started_at: date(at(i)),
      };
    }),
  );
}
