import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { conflict, notFound, validationError } from '../../errors';
import { InstanceSyncDatabase, PcdDatabase, PcdOp, PcdSnapshotBase, type PcdCacheStats, type PcdSourceKind } from '../../persistence/entities';
import type { SecretBox } from '../../platform/crypto';
import { assertBranchName, assertGitUrl } from '../git';
import { assertTokenUsernameHasToken, sealGitToken } from '../git-credentials';
import { unlinkDatabaseFromSources } from '../ref-guide/source-service';
import { sourceFailureText } from '../../domain/pcd/source-failures';

export type DatabaseSource = { kind: 'git'; url: string; branch?: string; token?: string; tokenUsername?: string } | { kind: 'local'; path: string };

export interface DatabaseInput {
  name: string;
  source: DatabaseSource;
  enabled?: boolean;
}

export interface DatabasePatch {
  name?: string;
  enabled?: boolean;
  branch?: string;
  /** A new token for the git source; null removes the stored one. */
  token?: string | null;
  tokenUsername?: string;
}

export interface DatabaseView {
  id: number;
  name: string;
  enabled: boolean;
  /** tokenSet: a token is stored for the git source (the token itself is never returned). */
  source: { kind: PcdSourceKind; url: string | null; path: string | null; branch: string | null; tokenSet: boolean };
  manifest: { name: string; version: string; description: string | null; arrTypes: ArrType[]; dependencies: Record<string, string> } | null;
  commit: string | null;
  cache: { status: PcdDatabase['cacheStatus']; reason: string | null; message: string | null; stats: PcdCacheStats | null };
  schema: { source: 'dependency' | 'bundled' | null; note: string | null };
  contentVersion: number;
  /** Set by a rollback: the snapshot whose base the database stays on until the next pull. */
  pinnedSnapshotId: number | null;
  lastPulledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export class PcdDatabaseService {
  constructor(
    private readonly em: EntityManager,
    private readonly secretBox: SecretBox,
  ) {}

  /** Stores a new database; `inserted` runs in the same transaction (what the link sets off). */
  async create(input: DatabaseInput, inserted?: (tx: EntityManager, database: PcdDatabase) => Promise<void>): Promise<PcdDatabase> {
    await this.assertNameFree(input.name);
    return this.em.transactional(async (tx) => {
      const database = tx.create(PcdDatabase, {
        name: input.name,
        sourceKind: input.source.kind,
        sourceLocation: input.source.kind === 'git' ? input.source.url : path.resolve(input.source.path),
        branch: input.source.kind === 'git' ? (input.source.branch ?? 'main') : null,
        enabled: input.enabled ?? true,
        cacheStatus: 'pending',
        contentVersion: 0,
        userVersion: 0,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      if (input.source.kind === 'git') {
        assertGitUrl(input.source.url);
        assertBranchName(database.branch!);
        assertTokenUsernameHasToken(input.source, 'body.source');
        if (input.source.token !== undefined) database.gitCredentialSealed = sealGitToken(this.secretBox, input.source.url, { token: input.source.token, tokenUsername: input.source.tokenUsername }, 'body.source');
      } else {
        assertLocalPcd(database.sourceLocation);
      }
      await tx.flush();
      await inserted?.(tx, database);
      return database;
    });
  }

  async list(): Promise<PcdDatabase[]> {
    return this.em.find(PcdDatabase, {}, { orderBy: { id: 'asc' } });
  }

  async load(id: number): Promise<PcdDatabase> {
    const database = await this.em.findOne(PcdDatabase, { id });
    if (!database) throw notFound(`Database ${id} not found`);
    return database;
  }

  async update(id: number, patch: DatabasePatch): Promise<PcdDatabase> {
    const database = await this.load(id);
    if (patch.name !== undefined && patch.name !== database.name) {
      await this.assertNameFree(patch.name);
      database.name = patch.name;
    }
    if (patch.enabled !== undefined) database.enabled = patch.enabled;
    if (patch.branch !== undefined) {
      if (database.sourceKind !== 'git') throw validationError('Invalid request: body.branch applies to git sources only');
      assertBranchName(patch.branch);
      // A missing-branch failure names the configured branch: it no longer applies to another one.
      if (patch.branch !== database.branch && database.cacheReason === 'branch_not_found') database.cacheReason = null;
      database.branch = patch.branch;
    }
    if (patch.token !== undefined || patch.tokenUsername !== undefined) {
      if (database.sourceKind !== 'git') throw validationError('Invalid request: body.token applies to git sources only');
      assertTokenUsernameHasToken(patch, 'body');
      database.gitCredentialSealed = patch.token === null ? null : sealGitToken(this.secretBox, database.sourceLocation, { token: patch.token!, tokenUsername: patch.tokenUsername }, 'body');
      // An access failure was about the old token.
      if (database.cacheReason === 'auth_failed') database.cacheReason = null;
    }
    database.updatedAt = new Date();
    await this.em.flush();
    return database;
  }

  /** Removes the database, its ops (base and user) and, for git sources, its clone. */
  async delete(id: number, cloneDir: string | null): Promise<void> {
    const database = await this.load(id);
    const users = await this.em.find(InstanceSyncDatabase, { databaseId: id }, { fields: ['instanceId'], orderBy: { instanceId: 'asc' } });
    if (users.length) {
      throw conflict(`Database ${id} feeds ${users.length} instance${users.length === 1 ? '' : 's'} (${users.map((u) => u.instanceId).join(', ')}); point their sync configuration elsewhere first`);
    }
    await this.em.nativeDelete(PcdOp, { databaseId: id });
    // Snapshot and rollback records stay for the timeline (by name); the stored op sets go.
    await this.em.nativeDelete(PcdSnapshotBase, { databaseId: id });
    await this.em.remove(database).flush();
    await unlinkDatabaseFromSources(this.em, id);
    if (cloneDir) fs.rmSync(cloneDir, { recursive: true, force: true });
  }

  private async assertNameFree(name: string): Promise<void> {
    if (await this.em.count(PcdDatabase, { name })) throw validationError(`A database named "${name}" already exists`);
  }
}

function assertLocalPcd(dir: string): void {
  if (!fs.existsSync(path.join(dir, 'pcd.json'))) {
    throw validationError('Invalid request: body.source.path must be a directory containing pcd.json');
  }
}

export function toDatabaseView(database: PcdDatabase): DatabaseView {
  const manifest = database.manifest;
  return {
    id: database.id,
    name: database.name,
    enabled: database.enabled,
    source: {
      kind: database.sourceKind,
      url: database.sourceKind === 'git' ? database.sourceLocation : null,
      path: database.sourceKind === 'local' ? database.sourceLocation : null,
      branch: database.branch,
      tokenSet: database.gitCredentialSealed !== null,
    },
    manifest: manifest
      ? {
          name: manifest.name,
          version: manifest.version,
          description: manifest.description,
          arrTypes: manifest.arrTypes as ArrType[],
          dependencies: manifest.dependencies,
        }
      : null,
    commit: database.commitSha,
    cache: {
      status: database.cacheStatus,
      reason: database.cacheReason,
      message: database.cacheReason ? sourceFailureText(database.cacheReason, database.branch) : null,
      stats: database.cacheStats,
    },
    schema: { source: database.schemaSource, note: database.schemaNote },
    contentVersion: database.contentVersion,
    pinnedSnapshotId: database.pinnedSnapshotId,
    lastPulledAt: database.lastPulledAt?.toISOString() ?? null,
    createdAt: database.createdAt.toISOString(),
    updatedAt: database.updatedAt.toISOString(),
  };
}
