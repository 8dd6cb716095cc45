import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';

/**
 * Histories recorded by earlier versions of arrgo replay on the current workflow code: a change to a
 * workflow keeps its older path behind `patched()` for executions started before it.
 */
describe('workflow histories of earlier versions replay on the current code', () => {
  it('a canary rollout that synced its targets in child workflows (before rollout-targets-as-activities)', async () => {
    const file = path.join(__dirname, '..', 'fixtures', 'histories', 'canary-rollout-with-target-children.json');
    const history = JSON.parse(fs.readFileSync(file, 'utf8'));
    const targetChildren = history.events.filter((e: { startChildWorkflowExecutionInitiatedEventAttributes?: { workflowId: string } }) => /-target-\d+$/.test(e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? ''));
    expect(targetChildren).toHaveLength(2);
    await expect(Worker.runReplayHistory({ workflowsPath: require.resolve('../../src/workflows') }, history, 'canary-rollout-1')).resolves.toBeUndefined();
  }, 120_000);

  /** Names of the activities a history schedules, in order. */
  const scheduledActivities = (history: { events: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[] }) =>
    history.events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : []));

  it('a canary rollout that built its evidence with one activity per target (before evidence-in-one-activity)', async () => {
    const file = path.join(__dirname, '..', 'fixtures', 'histories', 'canary-rollout-with-evidence-per-target.json');
    const history = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(scheduledActivities(history)).toEqual(['buildEvidencePreview', 'buildEvidencePreview', 'applySyncPlan', 'applySyncPlan']);
    await expect(Worker.runReplayHistory({ workflowsPath: require.resolve('../../src/workflows') }, history, 'canary-rollout-1')).resolves.toBeUndefined();
  }, 120_000);

  it('a canary rollout with its evidence round in one activity (the current code)', async () => {
    const file = path.join(__dirname, '..', 'fixtures', 'histories', 'canary-rollout-with-evidence-round.json');
    const history = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(scheduledActivities(history)).toEqual(['buildEvidencePreviews', 'applySyncPlan', 'applySyncPlan']);
    await expect(Worker.runReplayHistory({ workflowsPath: require.resolve('../../src/workflows') }, history, 'canary-rollout-1')).resolves.toBeUndefined();
  }, 120_000);
});
