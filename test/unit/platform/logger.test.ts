import { createLogger, SecretScrubber } from '../../../src/platform/logger';

describe('logging redaction', () => {
  function capture() {
    const lines: string[] = [];
    const scrubber = new SecretScrubber();
    const logger = createLogger({ level: 'debug', stdout: false, extra: [{ write: (l) => void lines.push(l) }], scrubber });
    return { lines, scrubber, logger };
  }

  it('redacts API key fields by path', () => {
    const { lines, logger } = capture();
    logger.info({ apiKey: 'k-1', instance: { apiKey: 'k-2' }, headers: { 'x-api-key': 'k-3', authorization: 'Bearer k-4' } }, 'msg');
    const line = lines.join('');
    for (const key of ['k-1', 'k-2', 'k-3', 'k-4']) expect(line).not.toContain(`"${key}"`);
    expect(line).toContain('[REDACTED]');
  });

  it('scrubs registered secrets wherever they appear, even inside messages and errors', () => {
    const { lines, scrubber, logger } = capture();
    scrubber.add('0123456789abcdef');
    logger.error({ err: new Error('GET http://radarr/api?apikey=0123456789abcdef failed') }, 'with 0123456789abcdef inside');
    const line = lines.join('');
    expect(line).not.toContain('0123456789abcdef');
    expect(line.match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('scrubs secrets known by their shape and redacts cookie and CSRF headers by path', () => {
    const { lines, scrubber, logger } = capture();
    scrubber.addPattern(/(arrgo_session=)[^;\s"]+/);
    scrubber.addPattern(/(arrgo_session=)[^;\s"]+/);
    logger.debug({ headers: { cookie: 'arrgo_session=cookie-value-1', 'x-arrgo-csrf': 'csrf-value-2' }, csrfToken: 'csrf-value-3' }, 'sent arrgo_session=cookie-value-4; theme=dark');
    const line = lines.join('');
    for (const value of ['cookie-value-1', 'csrf-value-2', 'csrf-value-3', 'cookie-value-4']) expect(line).not.toContain(value);
    expect(line).toContain('sent arrgo_session=[REDACTED]; theme=dark');
  });
});
