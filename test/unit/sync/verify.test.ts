/**
 * Verified apply: after applyPlan, verifyPlan reads the written entities back through the preview's
 * views; a field the app accepted but did not store (the emulator's ignoreField fault) is a
 * notApplied mismatch, and completeRun makes such a run partial with the fields named.
 */
import { applyPlan, completeRun, verificationFailure, verificationNeeds, verifyPlan, type WritePlan } from '../../../src/domain/sync';
import { fetchLive, planFor, sampleDatabase, sampleSelection, startApp, type AppUnderTest } from './helpers';

const NOW = new Date('2026-11-27T08:00:00Z');

describe('verifyPlan', () => {
  let target: AppUnderTest;
  afterEach(() => target.emulator.close());

  it('an apply that landed is verified, every written entity checked', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const outcomes = await applyPlan(plan, target.client);
    const verification = verifyPlan(plan, outcomes, await fetchLive(target.client), NOW);
    const definitions = plan.steps.flatMap((s) => (s.kind === 'qualityDefinitions' ? s.entries : [])).length;
    expect(verification).toEqual({ status: 'verified', checked: plan.steps.length - 1 + definitions, mismatches: [], verifiedAt: NOW.toISOString() });
    expect(completeRun({ steps: plan.steps, outcomes, sectionsAttempted: ['qualityProfiles'] }, null, verification).status).toBe('success');
  });

  it('a field the app silently did not store is a notApplied mismatch naming the quality and field, and the run is partial', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app'));
    const step = plan.steps.find((s) => s.kind === 'qualityDefinitions');
    if (step?.kind !== 'qualityDefinitions') throw new Error('the sample plan writes quality definitions');
    const changedMax = step.entries.filter((e) => e.maxSize !== target.emulator.state.qualityDefinitions.find((d) => d.quality.name === e.quality)!.maxSize);
    expect(changedMax.length).toBeGreaterThan(0);
    target.emulator.faults.add({ kind: 'ignoreField', resource: 'qualitydefinition', field: 'maxSize' });
    const outcomes = await applyPlan(plan, target.client);
    const verification = verifyPlan(plan, outcomes, await fetchLive(target.client), NOW);
    expect(verification.status).toBe('unverified');
    expect(verification.mismatches).toEqual(
      changedMax.map((e) => ({
        stepId: step.id,
        entityType: 'qualityDefinition',
        name: e.quality,
        path: 'maxSize',
        expected: e.maxSize,
        actual: target.emulator.state.qualityDefinitions.find((d) => d.quality.name === e.quality)!.maxSize,
        code: 'notApplied',
      })),
    );
    const run = completeRun({ steps: plan.steps, outcomes, sectionsAttempted: ['qualityProfiles', 'mediaManagement'] }, null, verification);
    expect(run.status).toBe('partial');
    expect(run.failure?.code).toBe('notApplied');
    expect(run.failure?.message).toContain(`${changedMax[0].quality} maxSize`);
  });

  it('finds a written entity by the outcome app id first (a rename on the app is a name mismatch), and a missing one is entityMissing', async () => {
    target = await startApp('radarr');
    const { plan } = await planFor(sampleDatabase(), target, sampleSelection('movie_app', { qualityDefinitions: null, naming: null, mediaSettings: null, delayProfile: null }));
    const outcomes = await applyPlan(plan, target.client);
    const [first, second] = outcomes.filter((o) => o.kind === 'customFormat');
    const renamed = target.emulator.state.customFormats.find((f) => f.id === first.remoteId)!;
    renamed.name = `${renamed.name} (renamed)`;
    target.emulator.state.customFormats = target.emulator.state.customFormats.filter((f) => f.id !== second.remoteId);
    const verification = verifyPlan(plan, outcomes, await fetchLive(target.client), NOW);
    expect(verification.mismatches.filter((m) => m.entityType === 'customFormat')).toEqual([
      { stepId: first.stepId, entityType: 'customFormat', name: first.name, path: 'name', expected: first.name, actual: renamed.name, code: 'notApplied' },
      { stepId: second.stepId, entityType: 'customFormat', name: second.name, path: '', expected: second.name, actual: null, code: 'entityMissing' },
    ]);
  });

  it('a delete is verified when the entity is gone; nothing written is skipped', () => {
    const plan: WritePlan = {
      version: 1,
      arrType: 'movie_app',
      steps: [{ id: 'customFormat:delete:Old', section: 'qualityProfiles', entityType: 'customFormat', action: 'delete', name: 'Old', displayName: 'Old', kind: 'customFormat', op: 'delete', remoteId: 7 }],
    };
    const deleted = [{ index: 0, stepId: 'customFormat:delete:Old', kind: 'customFormat' as const, name: 'Old', outcome: 'deleted' as const, remoteId: 7 }];
    expect(verificationNeeds(plan.steps)).toEqual(['customFormats']);
    expect(verifyPlan(plan, deleted, { customFormats: [] }, NOW).status).toBe('verified');
    const still = verifyPlan(plan, deleted, { customFormats: [{ id: 7, name: 'Old', includeCustomFormatWhenRenaming: false, specifications: [] }] }, NOW);
    expect(still.mismatches).toEqual([{ stepId: 'customFormat:delete:Old', entityType: 'customFormat', name: 'Old', path: '', expected: null, actual: 'Old', code: 'notApplied' }]);
    expect(verifyPlan(plan, [{ ...deleted[0], outcome: 'skipped', remoteId: null }], {}, NOW)).toEqual({ status: 'skipped', checked: 0, mismatches: [], verifiedAt: NOW.toISOString() });
  });

  it('an unreadable app leaves the run partial with verificationUnreadable and its cause', () => {
    const failure = verificationFailure({ status: 'unverified', checked: 0, mismatches: [], unreadable: 'unreachable', verifiedAt: NOW.toISOString() });
    expect(failure).toMatchObject({ code: 'verificationUnreadable', cause: 'unreachable' });
    expect(verificationFailure({ status: 'verified', checked: 3, mismatches: [], verifiedAt: NOW.toISOString() })).toBeNull();
  });
});
