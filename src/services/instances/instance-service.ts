import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import type { Verification, VerificationReason, VerificationStatus } from '../../domain/instance-verification';
import { AppError, notFound, validationError } from '../../errors';
import type { SecretBox } from '../../platform/crypto';
import { secretScrubber } from '../../platform/logger';
import { DriftResult, HealthSnapshot, Instance, InstanceSyncConfig, InstanceSyncDatabase, SyncLedgerEntry, SyncRun } from '../../persistence/entities';

export interface InstanceInput {
  name: string;
  arrType: ArrType;
  baseUrl: string;
  apiKey: string;
  enabled?: boolean;
  tags?: string[];
}

export type InstancePatch = Partial<InstanceInput>;

/** What the API shows of an instance: everything but the key. */
export interface InstanceView {
  id: number;
  name: string;
  arrType: ArrType;
  baseUrl: string;
  enabled: boolean;
  tags: string[];
  apiKeySet: boolean;
  verification: {
    status: VerificationStatus;
    checkedAt: string | null;
    appName: string | null;
    version: string | null;
    reason: VerificationReason | null;
  };
  createdAt: string;
  updatedAt: string;
}

export interface InstanceConnection {
  id: number;
  name: string;
  arrType: ArrType;
  baseUrl: string;
  apiKey: string;
  enabled: boolean;
}

export interface InstanceListFilter {
  arrType?: ArrType;
  enabled?: boolean;
  tag?: string;
  /** true: verified only; false: unverified and never-verified. */
  verified?: boolean;
  page: number;
  pageSize: number;
}

export class InstanceService {
  /** The service over the current request's (or activity's) EntityManager. */
  static of(deps: { orm: { em: EntityManager }; secretBox: SecretBox }): InstanceService {
    return new InstanceService(deps.orm.em, deps.secretBox);
  }


  constructor(
    private readonly em: EntityManager,
    private readonly secretBox: SecretBox,
  ) {}

  /** Stores a new instance with what its connection test found (the key sealed as the test had it). */
  async create(input: Omit<InstanceInput, 'apiKey'> & { apiKeySealed: string }, verification: Verification): Promise<InstanceView> {
    await this.assertNameFree(input.name);
    const instance = this.em.create(Instance, {
      name: input.name,
      arrType: input.arrType,
      baseUrl: normalizeBaseUrl(input.baseUrl),
      apiKeySealed: input.apiKeySealed,
      enabled: input.enabled ?? true,
      tags: dedupe(input.tags ?? []),
      ...verificationColumns(verification),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await this.em.flush();
    return toView(instance);
  }

  /** Seals an API key for storing (or for a connection test of a candidate); the clear key joins the log scrubber. */
  seal(apiKey: string): string {
    secretScrubber.add(apiKey);
    return this.secretBox.encrypt(apiKey);
  }

  async list(filter: InstanceListFilter): Promise<{ items: InstanceView[]; total: number }> {
    const where: Record<string, unknown> = {};
    if (filter.arrType) where.arrType = filter.arrType;
    if (filter.enabled !== undefined) where.enabled = filter.enabled;
    if (filter.verified !== undefined) where.verificationStatus = filter.verified ? 'verified' : { $ne: 'verified' };
    let all = await this.em.find(Instance, where, { orderBy: { id: 'asc' } });
    if (filter.tag) all = all.filter((i) => i.tags.includes(filter.tag!));
    const start = (filter.page - 1) * filter.pageSize;
    return { items: all.slice(start, start + filter.pageSize).map(toView), total: all.length };
  }

  async get(id: number): Promise<InstanceView> {
    return toView(await this.load(id));
  }

  async load(id: number): Promise<Instance> {
    return loadInstance(this.em, id);
  }

  /**
   * Changes the instance. A change of its app (URL, type or key) comes with what the connection
   * test of the new values found (`tested`: the key sealed as the test had it).
   */
  async update(id: number, patch: Omit<InstancePatch, 'apiKey'>, tested?: { apiKeySealed: string; verification: Verification }): Promise<InstanceView> {
    const instance = await this.load(id);
    if (patch.name !== undefined && patch.name !== instance.name) {
      await this.assertNameFree(patch.name);
      instance.name = patch.name;
    }
    if (patch.arrType !== undefined) instance.arrType = patch.arrType;
    if (patch.baseUrl !== undefined) instance.baseUrl = normalizeBaseUrl(patch.baseUrl);
    if (tested) Object.assign(instance, { apiKeySealed: tested.apiKeySealed, ...verificationColumns(tested.verification) });
    if (patch.enabled !== undefined) instance.enabled = patch.enabled;
    if (patch.tags !== undefined) instance.tags = dedupe(patch.tags);
    instance.updatedAt = new Date();
    await this.em.flush();
    return toView(instance);
  }

  /** Records what a connection test of the stored instance found. */
  async recordVerification(id: number, verification: Verification): Promise<void> {
    await this.em.nativeUpdate(Instance, { id }, verificationColumns(verification));
  }

  /**
   * Removes the instance and what only made sense with it (sync configuration, drift result,
   * health snapshots, sync ledger). Sync history keeps its runs with the instance name; their id is cleared.
   */
  async delete(id: number): Promise<void> {
    const instance = await this.load(id);
    await this.em.transactional(async (tx) => {
      await tx.nativeDelete(InstanceSyncDatabase, { instanceId: id });
      await tx.nativeDelete(InstanceSyncConfig, { instanceId: id });
      await tx.nativeDelete(DriftResult, { instanceId: id });
      await tx.nativeDelete(HealthSnapshot, { instanceId: id });
      await tx.nativeDelete(SyncLedgerEntry, { instanceId: id });
      await tx.nativeUpdate(SyncRun, { instanceId: id }, { instanceId: null });
      tx.remove(instance);
    });
  }

  /** Decrypts the key for app I/O; the clear key is registered with the log scrubber first. */
  async connection(id: number): Promise<InstanceConnection> {
    const instance = await this.load(id);
    return this.connectionOf(instance);
  }

  connectionOf(instance: Pick<Instance, 'id' | 'name' | 'arrType' | 'baseUrl' | 'apiKeySealed' | 'enabled'>): InstanceConnection {
    let apiKey: string;
    try {
      apiKey = this.secretBox.decrypt(instance.apiKeySealed);
    } catch {
      throw new AppError('internal', `The stored API key of instance ${instance.id} cannot be decrypted; set it again`);
    }
    secretScrubber.add(apiKey);
    return { id: instance.id, name: instance.name, arrType: instance.arrType, baseUrl: instance.baseUrl, apiKey, enabled: instance.enabled };
  }

  async assertNameFree(name: string): Promise<void> {
    if (await this.em.count(Instance, { name })) throw validationError(`An instance named "${name}" already exists`);
  }
}

export function toView(instance: Instance): InstanceView {
  return {
    id: instance.id,
    name: instance.name,
    arrType: instance.arrType,
    baseUrl: instance.baseUrl,
    enabled: instance.enabled,
    tags: instance.tags,
    apiKeySet: Boolean(instance.apiKeySealed),
    verification: {
      status: instance.verificationStatus,
      checkedAt: instance.verificationCheckedAt?.toISOString() ?? null,
      appName: instance.verificationAppName,
      version: instance.verificationAppVersion,
      reason: instance.verificationReason,
    },
    createdAt: instance.createdAt.toISOString(),
    updatedAt: instance.updatedAt.toISOString(),
  };
}

function verificationColumns(verification: Verification): Pick<Instance, 'verificationStatus' | 'verificationCheckedAt' | 'verificationAppName' | 'verificationAppVersion' | 'verificationReason'> {
  return {
    verificationStatus: verification.status,
    verificationCheckedAt: verification.checkedAt,
    verificationAppName: verification.appName,
    verificationAppVersion: verification.version,
    verificationReason: verification.reason,
  };
}

/** A base URL as stored: trimmed, without trailing slashes. */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function dedupe(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

/** The instance with this id, or a 404 naming it: the one lookup every feature uses. */
export async function loadInstance(em: EntityManager, id: number): Promise<Instance> {
  const instance = await em.findOne(Instance, { id });
  if (!instance) throw notFound(`Instance ${id} not found`);
  return instance;
}
