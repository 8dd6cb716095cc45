import { completeRun, type StepOutcome } from '../../../src/domain/sync';

const step = (index: number, outcome: StepOutcome['outcome']): StepOutcome => ({ index, stepId: `s${index}`, kind: 'customFormat', name: `cf${index}`, outcome, remoteId: index });
const steps = [{ section: 'qualityProfiles' }, { section: 'qualityProfiles' }, { section: 'delayProfiles' }];
const stopped = { code: 'serverError', message: 'The app answered with a server error.', recoveryAction: 'Retry later.' } as const;

describe('completeRun', () => {
  it('a run with every step confirmed succeeds and counts its sections', () => {
    expect(completeRun({ steps, outcomes: [step(0, 'created'), step(1, 'skipped'), step(2, 'updated')], sectionsAttempted: ['qualityProfiles', 'delayProfiles'] }, null)).toEqual({
      status: 'success',
      failure: null,
      written: 2,
      sectionsRun: 2,
    });
  });

  it('a run that stopped after writing is partial and its evidence says how much was written', () => {
    const result = completeRun({ steps, outcomes: [step(0, 'created')], sectionsAttempted: ['qualityProfiles', 'delayProfiles'] }, stopped);
    expect(result).toEqual({
      status: 'partial',
      written: 1,
      sectionsRun: 1,
      failure: { ...stopped, message: 'The app answered with a server error. 1 of 3 changes were written before it stopped; the run is recorded as partial.' },
    });
  });

  it('a run that stopped before writing failed, with its evidence unchanged', () => {
    expect(completeRun({ steps, outcomes: [], sectionsAttempted: ['qualityProfiles', 'delayProfiles'] }, stopped)).toEqual({ status: 'failed', failure: stopped, written: 0, sectionsRun: 0 });
  });
});
