import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';

/**
 * A polling run started by an earlier release must replay on the current workflow code: the
 * fixture is the history of a run whose checks' activity did not record the run yet (a local
 * activity `recordDriftRun` did, after it), over one drifted and one unreachable instance.
 */
describe('drift polling runs started before the run was recorded by the checks', () => {
  it('replay on the current workflow code without nondeterminism', async () => {
    const bundle = process.env.TEST_WORKFLOW_BUNDLE;
    if (!bundle) throw new Error('TEST_WORKFLOW_BUNDLE is not set (the jest global setup builds it)');
    const history = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'drift-poll-run-recorded-by-local-activity.history.json'), 'utf8'));
    const markers = history.events.filter((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED').map((e: { markerRecordedEventAttributes: { markerName: string } }) => e.markerRecordedEventAttributes.markerName);
    // What makes it an old history: two local activities (listing, then recording) around the checks.
    expect(markers).toEqual(['core_local_activity', 'core_patch', 'core_local_activity']);
    await Worker.runReplayHistory({ workflowBundle: { codePath: bundle } }, history, 'drift-poll-before-run-recorded-by-checks');
  });
});
