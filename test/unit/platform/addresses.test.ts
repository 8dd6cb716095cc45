import { devServerArgs } from '../../../temporal/provision.cjs';
import { browsableHost, isLoopback } from '../../../src/platform/addresses';

describe('listening addresses', () => {
  it('passes the Web UI address to the dev server, and none when headless', () => {
    const args = devServerArgs({ ip: '127.0.0.1', port: 7233, uiPort: 8233, uiIp: '0.0.0.0' });
    expect(args.slice(0, 14)).toEqual(['server', 'start-dev', '--log-level', 'error', '--log-format', 'json', '--ip', '127.0.0.1', '--port', '7233', '--ui-port', '8233', '--ui-ip', '0.0.0.0']);
    expect(devServerArgs({ ip: '127.0.0.1', port: 7233, headless: true, uiIp: '0.0.0.0' })).not.toContain('--ui-ip');
    expect(devServerArgs({ ip: '127.0.0.1', port: 7233, uiPort: 8233 })).not.toContain('--ui-ip');
  });

  it('tells loopback from the rest and builds the URL a local browser opens', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1'].map(isLoopback)).toEqual([true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.5', 'fd00::5'].map(isLoopback)).toEqual([false, false, false, false]);
    expect(['0.0.0.0', '::', '127.0.0.1', '192.168.1.5', 'fd00::5'].map(browsableHost)).toEqual(['localhost', 'localhost', '127.0.0.1', '192.168.1.5', '[fd00::5]']);
  });
});
