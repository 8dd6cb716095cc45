import { formatReport, runSoak, type SoakForm } from '../chaos/soak';

/**
 * The chaos soak (docs/reliability.md, "Chaos soak"). `npm test` runs the short form (5 instances,
 * 5 worker SIGKILLs, one Temporal and one PostgreSQL restart); `npm run chaos` the long one through
 * CHAOS_FORM and CHAOS_SEED.
 */
const form = (process.env.CHAOS_FORM ?? 'short') as SoakForm;
const seed = Number(process.env.CHAOS_SEED ?? 20261127);

describe(`chaos soak (${form} form, seed ${seed})`, () => {
  it('keeps every invariant under worker kills, server restarts and app faults', async () => {
    const report = await runSoak({ seed, form, progress: (line) => process.stdout.write(`[chaos] ${line}\n`) });
    process.stdout.write(`${formatReport(report)}\n`);
    expect(report.faults['worker SIGKILL']).toBe(form === 'long' ? 20 : 5);
    expect(report.faults['Temporal restart']).toBe(form === 'long' ? 2 : 1);
    expect(report.faults['PostgreSQL restart']).toBe(form === 'long' ? 2 : 1);
    expect(report.operations['sync applies']).toBeGreaterThan(0);
    expect(report.violations).toEqual([]);
  }, 40 * 60_000);
});
