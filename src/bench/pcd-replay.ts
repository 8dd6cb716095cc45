/**
 * PCD replay benchmark: trash-pcd replayed with lineage capture (two databases, base and
 * resolved) against a plain better-sqlite3 replay of the same ops measured in the same run
 * (same schema, seeds, transaction and one SAVEPOINT per op, no lineage, one database). Also
 * reports the memory a cached replay holds: SQLite memory is native, so the size of each
 * serialized database stands for it; the V8 heap delta (after GC) is what the JS side retains.
 * Both replays are timed alternately (pairedTimings); the ratio is median against median (each
 * replay runs ~0.2 s, so on a busy machine no run escapes preemption and a best-of-N is a lucky
 * draw), the best-of-N ratio is printed beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import Database from 'better-sqlite3';
import { loadPcdRepository, replayPcd, schemaSeedOps, SCHEMA_DDL, type PcdOp } from '../domain/pcd';
import { pairedTimings, type Benchmark } from './harness';

const TRASH_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'data', 'pcd', 'trash-pcd');
/** Alternating rounds of both replays (about 0.2 s each) after two warm-up rounds. */
const ROUNDS = 11;

function readRepository() {
  const opsDir = path.join(TRASH_DIR, 'ops');
  return loadPcdRepository({
    manifest: fs.readFileSync(path.join(TRASH_DIR, 'pcd.json'), 'utf8'),
    ops: fs.readdirSync(opsDir).map((file) => ({ file, text: fs.readFileSync(path.join(opsDir, file), 'utf8') })),
  });
}

let plainTemplate: Buffer | null = null;

/** The baseline: the schema and seeds (prepared once, like the engine's template), then every op in its savepoint. */
function plainReplay(ops: readonly PcdOp[]): Database.Database {
  if (!plainTemplate) {
    const t = new Database(':memory:');
    t.exec(SCHEMA_DDL);
    for (const seed of schemaSeedOps()) t.exec(seed.sql);
    plainTemplate = t.serialize();
    t.close();
  }
  const db = new Database(plainTemplate);
  db.pragma('foreign_keys = ON');
  db.exec('BEGIN');
  for (const op of ops) {
    db.exec('SAVEPOINT op');
    try {
      db.exec(op.sql);
      db.exec('RELEASE op');
    } catch {
      db.exec('ROLLBACK TO op');
      db.exec('RELEASE op');
    }
  }
  db.exec('COMMIT');
  return db;
}

/** A garbage collector handle without --expose-gc, so the heap delta measures retained memory. */
function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => gc();
}

const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 100) / 100;

export const pcdReplayBenchmark: Benchmark = {
  name: 'pcd-replay',
  unavailable: () => (fs.existsSync(path.join(TRASH_DIR, 'ops')) ? null : `${TRASH_DIR} is absent`),
  async run(report) {
    const repo = readRepository();
    const ops = repo.base;

    const timings = await pairedTimings(
      ROUNDS,
      () => plainReplay(ops).close(),
      () => {
        const r = replayPcd({ base: ops });
        r.base.close();
        r.resolved.close();
      },
      2,
    );
    report({ name: 'trash-pcd replay, plain better-sqlite3', values: { ms: timings.baseline.medianMs, bestMs: timings.baseline.bestMs, ops: ops.length } });

    const gc = collectGarbage();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const replay = replayPcd({ base: ops });
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    report({
      name: 'trash-pcd replay with lineage (base + resolved)',
      values: { ms: timings.measured.medianMs, bestMs: timings.measured.bestMs, bestRatio: timings.bestRatio, rounds: String(timings.rounds), ops: replay.stats.ops, failed: String(replay.stats.failed) },
      ratio: { value: timings.medianRatio, baseline: `plain replay (medians of ${timings.rounds} alternating rounds)`, goal: '<= 1.3x' },
    });

    const plain = plainReplay(ops);
    const plainBytes = plain.serialize().length;
    const baseBytes = replay.base.serialize().length;
    const resolvedBytes = replay.resolved.serialize().length;
    const lineageRows = replay.resolved.prepare('SELECT COUNT(*) FROM _pcd_lineage').pluck().get() as number;
    report({
      name: 'memory per cached database',
      values: {
        baseMB: mb(baseBytes),
        resolvedMB: mb(resolvedBytes),
        plainMB: mb(plainBytes),
        lineageOverheadMB: mb(resolvedBytes - plainBytes),
        lineageRows,
        heapDeltaMB: mb(heapAfter - heapBefore),
      },
    });
    plain.close();
    replay.base.close();
    replay.resolved.close();
  },
};
