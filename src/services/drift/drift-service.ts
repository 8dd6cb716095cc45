import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { driftCheckWorkflow, searchAttributes } from '../../workflows/contracts';
import { Instance } from '../../persistence/entities';
import type { ServiceDeps } from '../deps';
import { loadInstance } from '../instances/instance-service';
import { applyDriftSchedule, deploymentScopedId } from '../schedules';
import { SettingsStore } from '../settings-store';
import { startWorkflow, translateTemporalError, workflowResult } from '../workflow-runner';
import { DRIFT_SETTINGS_KEY, driftSettingsView, type DriftSettings } from './drift-settings';
import { driftDetail } from './drift-view';

/**
 * Starts a drift check of the instance, or joins the one in flight (one workflow id per instance):
 * `manual` for a check asked for, `edit` for one that follows an edit of a database it syncs from.
 */
export function startDriftCheck(gateway: Pick<ServiceDeps['temporal'], 'client' | 'taskQueue' | 'localWorkerClient'>, instance: Pick<Instance, 'id' | 'name' | 'arrType'>, trigger: 'manual' | 'edit') {
  return startWorkflow(gateway, driftCheckWorkflow, {
    workflowId: deploymentScopedId(gateway.taskQueue, `drift-check-${instance.id}`),
    conflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [instance.id],
    staticSummary: trigger === 'edit' ? `Drift check of "${instance.name}" after an edit of its desired configuration` : `Drift check of "${instance.name}"`,
    searchAttributes: searchAttributes({ kind: 'drift-check', arrType: instance.arrType, instanceIds: [instance.id], trigger }),
  });
}

/** The use cases behind /drift: stored results, checks on demand, polling settings. */
export class DriftService {
  constructor(private readonly deps: Pick<ServiceDeps, 'orm' | 'temporal'>) {}

  /** Every instance's drift, oldest instance first. */
  async list() {
    const em = this.deps.orm.em;
    const instances = await em.find(Instance, {}, { orderBy: { id: 'asc' }, fields: ['id'] });
    return Promise.all(instances.map((i) => driftDetail(em, i.id)));
  }

  detail(instanceId: number) {
    return driftDetail(this.deps.orm.em, instanceId);
  }

  /** Checks one instance now (joining a check in flight) and answers with the stored result. */
  async checkNow(instanceId: number) {
    const instance = await loadInstance(this.deps.orm.em, instanceId);
    await workflowResult(await startDriftCheck(this.deps.temporal, instance, 'manual'));
    this.deps.orm.em.clear();
    return driftDetail(this.deps.orm.em, instance.id);
  }

  settings() {
    return driftSettingsView(this.deps.orm.em, this.deps.temporal);
  }

  /** Brings the polling schedule in line first, then stores the settings. */
  async putSettings(settings: DriftSettings) {
    try {
      await applyDriftSchedule(this.deps.temporal, settings);
    } catch (error) {
      throw translateTemporalError(error);
    }
    await new SettingsStore(this.deps.orm.em).put(DRIFT_SETTINGS_KEY, settings);
    return this.settings();
  }
}
