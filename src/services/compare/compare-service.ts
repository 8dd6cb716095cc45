import type { Orm } from '../../persistence/orm';
import type { ServiceDeps } from '../deps';
import { COMPARABLE_ENTITY_TYPES, compareDiffs, entityFound, isComparable, type ComparableEntityType, type CompareDiff, type CompareInstanceInput, type CompareInstanceRead } from '../../domain/compare/entity-compare';
import { AppError, notFound, rateLimited, validationError } from '../../errors';
import type { TemporalGateway } from '../../platform/temporal-client';
import { Instance } from '../../persistence/entities';
import { compareEntityWorkflow, SA } from '../../workflows/contracts';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { SharedRateLimit } from '../shared-rate-limit';
import { executeWorkflow } from '../workflow-runner';

export const COMPARE_MAX_INSTANCES = 8;
/** Compare requests accepted per window (whole deployment: every API process counts in the database). */
export const COMPARE_REQUESTS_PER_WINDOW = 20;
export const COMPARE_WINDOW_SECONDS = 60;
/** One live fetch per instance per this interval; a second inside it answers `rate-limited` inline for that instance. */
export const LIVE_FETCH_INTERVAL_SECONDS = 30;

export interface CompareRequest {
  databaseId: number;
  entityType: string;
  name: string;
  instanceIds: number[];
  includeLive: boolean;
}

export interface CompareInstanceView {
  instanceId: number;
  instanceName: string;
  arrType: CompareInstanceRead['arrType'];
  supported: boolean;
  present: boolean;
  desired: Record<string, unknown> | null;
  live?: unknown;
  error?: string;
}

export interface CompareResult {
  databaseId: number;
  entityType: ComparableEntityType;
  name: string;
  instances: CompareInstanceView[];
  /** The instance the others are diffed against; null when no instance has the entity. */
  baselineInstanceId: number | null;
  diffs: CompareDiff[];
}

/** GET .../compare: validation, the request and live-fetch rate limits, and the short read workflow. */
export class CompareService {
  private readonly requests = new SharedRateLimit({ name: 'compare', limit: COMPARE_REQUESTS_PER_WINDOW, windowMs: COMPARE_WINDOW_SECONDS * 1000 });
  private readonly liveFetches = new SharedRateLimit({ name: 'compare-live-fetch', limit: 1, windowMs: LIVE_FETCH_INTERVAL_SECONDS * 1000 });

  static of(deps: Pick<ServiceDeps, 'temporal' | 'pcdCaches' | 'orm'>): CompareService {
    return new CompareService(deps.temporal, deps.pcdCaches, deps.orm);
  }

  constructor(
    private readonly temporal: TemporalGateway,
    private readonly caches: PcdCacheManager,
    private readonly orm: Orm,
  ) {}

  async compare(request: CompareRequest): Promise<CompareResult> {
    const em = this.orm.em;
    const { databaseId, entityType, name } = request;
    if (!isComparable(entityType)) {
      throw validationError(`Invalid request: params.entityType ${entityType} cannot be compared (one of ${COMPARABLE_ENTITY_TYPES.join(', ')})`);
    }
    const instances = await em.find(Instance, { id: { $in: request.instanceIds } });
    const unknown = request.instanceIds.filter((id) => !instances.some((i) => i.id === id));
    if (unknown.length) throw validationError(`Invalid request: query.instanceIds has unknown instance ids ${unknown.join(', ')}`);
    let cache;
    try {
      cache = await this.caches.get(databaseId);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'not_ready') throw validationError(error.publicMessage);
      throw error;
    }
    if (!entityFound(cache.resolved, entityType, name)) throw notFound(`${entityType} "${name}" not found in database ${databaseId}`);

    const { wait } = await this.requests.take(em, 'all');
    if (wait > 0) throw rateLimited(`Too many compare requests: at most ${COMPARE_REQUESTS_PER_WINDOW} per ${COMPARE_WINDOW_SECONDS} s; try again in ${wait} s`, wait);

    const liveLimited = new Set<number>();
    const inputs: CompareInstanceInput[] = [];
    for (const instanceId of request.instanceIds) {
      let includeLive = request.includeLive;
      if (includeLive && (await this.liveFetches.take(em, String(instanceId))).wait > 0) {
        liveLimited.add(instanceId);
        includeLive = false;
      }
      inputs.push({ databaseId, entityType, name, instanceId, includeLive });
    }
    const reads = await executeWorkflow(this.temporal, compareEntityWorkflow, {
      idPrefix: `compare-${databaseId}`,
      args: [inputs],
      executionTimeout: '3 minutes',
      staticSummary: `Compare ${entityType} "${name}" of database ${databaseId} across ${inputs.length} instance(s)`,
      staticDetails: `includeLive: ${request.includeLive}`,
      searchAttributes: [
        { key: SA.kind, value: 'compare' },
        { key: SA.databaseId, value: databaseId },
        { key: SA.instanceIds, value: request.instanceIds.map(String) },
      ],
    });
    const { baselineInstanceId, diffs } = compareDiffs(entityType, reads.map((r) => ({ instanceId: r.instanceId, desired: r.desired })));
    return {
      databaseId,
      entityType,
      name,
      instances: reads.map((r) => {
        const view: CompareInstanceView = {
          instanceId: r.instanceId,
          instanceName: r.instanceName,
          arrType: r.arrType,
          supported: r.supported,
          present: r.present,
          desired: r.desired?.payload ?? null,
        };
        if (r.live !== undefined) view.live = r.live;
        const error = r.error ?? (liveLimited.has(r.instanceId) ? 'rate-limited' : undefined);
        if (error) view.error = error;
        return view;
      }),
      baselineInstanceId,
      diffs,
    };
  }
}
