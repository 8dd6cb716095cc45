import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import { refGuideFailureText, type RefGuideArrType, type RefGuideType } from '../../domain/ref-guide';
import { notFound, validationError } from '../../errors';
import { PcdDatabase, RefGuideEntity, RefGuideSource, type RefGuideEntityCounts, type RefGuideOriginKind, type RefGuideSyncStatus } from '../../persistence/entities';
import type { SecretBox } from '../../platform/crypto';
import { assertBranchName, assertGitUrl } from '../git';
import { assertTokenUsernameHasToken, sealGitToken } from '../git-credentials';

export type RefGuideOrigin = { kind: 'git'; url: string; branch?: string; token?: string; tokenUsername?: string } | { kind: 'local'; path: string };

export interface RefGuideSourceInput {
  name: string;
  type?: RefGuideType;
  origin: RefGuideOrigin;
  arrType: RefGuideArrType;
  enabled?: boolean;
  databaseIds?: number[];
}

export interface RefGuideSourcePatch {
  name?: string;
  enabled?: boolean;
  branch?: string;
  /** A new token for the git origin; null removes the stored one. */
  token?: string | null;
  tokenUsername?: string;
  databaseIds?: number[];
}

export interface RefGuideSourceView {
  id: number;
  name: string;
  type: RefGuideType;
  arrType: RefGuideArrType;
  enabled: boolean;
  /** tokenSet: a token is stored for the git origin (the token itself is never returned). */
  origin: { kind: RefGuideOriginKind; url: string | null; path: string | null; branch: string | null; tokenSet: boolean };
  databaseIds: number[];
  lastCommit: string | null;
  lastSyncedAt: string | null;
  sync: { status: RefGuideSyncStatus; reason: string | null; message: string | null; lastAttemptAt: string | null };
  entityCounts: RefGuideEntityCounts | null;
  createdAt: string;
  updatedAt: string;
}

/** Reference-guide sources: create, read, update and delete, with their validation. */
export class RefGuideSourceService {
  constructor(
    private readonly em: EntityManager,
    private readonly secretBox: SecretBox,
  ) {}

  /** Stores a new source; `inserted` runs in the same transaction (what the creation sets off). */
  async create(input: RefGuideSourceInput, inserted?: (tx: EntityManager, source: RefGuideSource) => Promise<void>): Promise<RefGuideSource> {
    await this.assertNameFree(input.name);
    let location: string;
    let gitCredentialSealed: string | null = null;
    if (input.origin.kind === 'git') {
      assertGitUrl(input.origin.url, 'body.origin.url');
      assertBranchName(input.origin.branch ?? 'main', 'body.origin.branch');
      assertTokenUsernameHasToken(input.origin, 'body.origin');
      if (input.origin.token !== undefined) gitCredentialSealed = sealGitToken(this.secretBox, input.origin.url, { token: input.origin.token, tokenUsername: input.origin.tokenUsername }, 'body.origin');
      location = input.origin.url;
    } else {
      location = assertLocalDirectory(input.origin.path);
    }
    const databaseIds = await this.checkedDatabaseIds(input.databaseIds ?? []);
    return this.em.transactional(async (tx) => {
      const source = tx.create(RefGuideSource, {
        name: input.name,
        type: input.type ?? 'trash-guides',
        originKind: input.origin.kind,
        originLocation: location,
        gitCredentialSealed,
        branch: input.origin.kind === 'git' ? (input.origin.branch ?? 'main') : null,
        arrType: input.arrType,
        enabled: input.enabled ?? true,
        databaseIds,
        syncStatus: 'pending',
        createdAt: new Date(),
        updatedAt: new Date(),
      } as RefGuideSource);
      await tx.flush();
      await inserted?.(tx, source);
      return source;
    });
  }

  list(): Promise<RefGuideSource[]> {
    return this.em.find(RefGuideSource, {}, { orderBy: { id: 'asc' } });
  }

  async load(id: number): Promise<RefGuideSource> {
    const source = await this.em.findOne(RefGuideSource, { id });
    if (!source) throw notFound(`Reference-guide source ${id} not found`);
    return source;
  }

  async update(id: number, patch: RefGuideSourcePatch): Promise<RefGuideSource> {
    const source = await this.load(id);
    if (patch.name !== undefined && patch.name !== source.name) {
      await this.assertNameFree(patch.name);
      source.name = patch.name;
    }
    if (patch.enabled !== undefined) source.enabled = patch.enabled;
    if (patch.branch !== undefined) {
      if (source.originKind !== 'git') throw validationError('Invalid request: body.branch applies to git origins only');
      assertBranchName(patch.branch, 'body.branch');
      // A missing-branch failure names the configured branch: it no longer applies to another one.
      if (patch.branch !== source.branch && source.syncReason === 'branch_not_found') source.syncReason = null;
      source.branch = patch.branch;
    }
    if (patch.token !== undefined || patch.tokenUsername !== undefined) {
      if (source.originKind !== 'git') throw validationError('Invalid request: body.token applies to git origins only');
      assertTokenUsernameHasToken(patch, 'body');
      source.gitCredentialSealed = patch.token === null ? null : sealGitToken(this.secretBox, source.originLocation, { token: patch.token!, tokenUsername: patch.tokenUsername }, 'body');
      // An access failure was about the old token.
      if (source.syncReason === 'auth_failed') source.syncReason = null;
    }
    if (patch.databaseIds !== undefined) source.databaseIds = await this.checkedDatabaseIds(patch.databaseIds);
    source.updatedAt = new Date();
    await this.em.flush();
    return source;
  }

  /** Removes the source, its cached entities and (git origins) its clone. */
  async delete(id: number, cloneDir: string | null): Promise<void> {
    const source = await this.load(id);
    await this.em.transactional(async (tx) => {
      await tx.nativeDelete(RefGuideEntity, { sourceId: id });
      await tx.nativeDelete(RefGuideSource, { id: source.id });
    });
    this.em.clear();
    if (cloneDir) fs.rmSync(cloneDir, { recursive: true, force: true });
  }

  private async assertNameFree(name: string): Promise<void> {
    if (await this.em.count(RefGuideSource, { name })) throw validationError(`Invalid request: a reference-guide source named "${name}" already exists`);
  }

  private async checkedDatabaseIds(ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    if (unique.length === 0) return [];
    const found = new Set((await this.em.find(PcdDatabase, { id: { $in: unique } }, { fields: ['id'] })).map((d) => d.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw validationError(`Invalid request: body.databaseIds: database ${missing.join(', ')} does not exist`);
    return unique;
  }
}

/** Forgets a deleted PCD database in every source that was its reference. */
export async function unlinkDatabaseFromSources(em: EntityManager, databaseId: number): Promise<void> {
  for (const source of await em.find(RefGuideSource, {})) {
    if ((source.databaseIds ?? []).includes(databaseId)) source.databaseIds = source.databaseIds.filter((id) => id !== databaseId);
  }
  await em.flush();
}

function assertLocalDirectory(dir: string): string {
  if (!path.isAbsolute(dir)) throw validationError('Invalid request: body.origin.path must be an absolute path');
  const resolved = path.resolve(dir);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory()) throw validationError('Invalid request: body.origin.path must be an existing directory');
  return resolved;
}

export function toRefGuideSourceView(source: RefGuideSource): RefGuideSourceView {
  return {
    id: source.id,
    name: source.name,
    type: source.type,
    arrType: source.arrType as RefGuideArrType,
    enabled: source.enabled,
    origin: {
      kind: source.originKind,
      url: source.originKind === 'git' ? source.originLocation : null,
      path: source.originKind === 'local' ? source.originLocation : null,
      branch: source.branch,
      tokenSet: source.gitCredentialSealed !== null,
    },
    databaseIds: source.databaseIds ?? [],
    lastCommit: source.lastCommit,
    lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
    sync: {
      status: source.syncStatus,
      reason: source.syncReason,
      message: source.syncReason ? refGuideFailureText(source.syncReason, source.branch) : null,
      lastAttemptAt: source.lastAttemptAt?.toISOString() ?? null,
    },
    entityCounts: source.entityCounts,
    createdAt: source.createdAt.toISOString(),
    updatedAt: source.updatedAt.toISOString(),
  };
}
