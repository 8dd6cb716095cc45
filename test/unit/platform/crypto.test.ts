import { constantTimeEquals, SecretBox } from '../../../src/platform/crypto';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox('a-secret-of-at-least-thirty-two-characters!');

  it('round-trips and never contains the plaintext', () => {
    const sealed = box.encrypt('0123456789abcdef0123456789abcdef');
    expect(sealed).toMatch(/^v1\.[^.]+\.[^.]+\.[^.]+$/);
    expect(sealed).not.toContain('0123456789abcdef');
    expect(box.decrypt(sealed)).toBe('0123456789abcdef0123456789abcdef');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('detects tampering and a wrong key', () => {
    const sealed = box.encrypt('value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
    expect(() => new SecretBox('another-secret-of-at-least-thirty-two-chars').decrypt(sealed)).toThrow();
  });

  it('compares keys in constant time regardless of length', () => {
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
    expect(constantTimeEquals('', 'abc')).toBe(false);
  });
});
