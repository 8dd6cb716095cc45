import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_SCHEMA_PATH, generateClientSchema } from '../../../src/scripts/generate-client';

// The console and the CLI compile against src/client/schema.ts: when a route changes and the file
// is not regenerated, the console would type-check against an API that no longer exists.
describe('generated client types (src/client/schema.ts)', () => {
  it('match the current OpenAPI document (run `npm run generate:client` after changing a route)', async () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '../../..', CLIENT_SCHEMA_PATH), 'utf8');
    const current = generateClientSchema();
    // A first differing line says which route or schema changed.
    const committedLines = committed.split('\n');
    const firstDifference = current.split('\n').findIndex((line, index) => line !== committedLines[index]);
    expect({ firstDifference, line: current.split('\n')[firstDifference] ?? null }).toEqual({ firstDifference: -1, line: null });
    expect(current).toBe(committed);
  });

  it('type the operations the console calls, from the document', async () => {
    const current = generateClientSchema();
    expect(current).toContain('"/api/v1/instances": {');
    expect(current).toContain('createInstance: {');
    expect(current).toMatch(/"\/api\/v1\/instances\/\{id\}\/sync-config": \{/);
  });
});
