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
});
