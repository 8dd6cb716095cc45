import { UNUSABLE_PASSWORD_HASH, hashPassword, verifyPassword } from '../../../src/platform/passwords';

describe('password hashes', () => {
  it('are salted scrypt strings that verify the password and nothing else', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse', b)).toBe(true);
    expect(await verifyPassword('correct hors', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('verify composed and decomposed Unicode spellings alike', async () => {
    const hash = await hashPassword('caf\u00e9-passw0rd');
    expect(await verifyPassword('cafe\u0301-passw0rd', hash)).toBe(true);
  });

  it('refuse a damaged or foreign stored value without throwing, and never match the unusable hash', async () => {
    for (const stored of ['', 'plain', 'bcrypt$x', 'scrypt$3$8$1$c2FsdA$aGFzaA', 'scrypt$1073741824$8$1$c2FsdA$aGFzaA', 'scrypt$16384$8$1$$']) {
      expect({ stored, ok: await verifyPassword('anything', stored) }).toEqual({ stored, ok: false });
    }
    expect(await verifyPassword('', UNUSABLE_PASSWORD_HASH)).toBe(false);
  });
});
