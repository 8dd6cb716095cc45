/** Whether a listening address is reachable from this machine only. */
export function isLoopback(address: string): boolean {
  return address === '::1' || address === 'localhost' || address.startsWith('127.');
}

/** The host of a URL a browser on this machine opens for a listening address (the wildcards through localhost). */
export function browsableHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return address.includes(':') ? `[${address}]` : address;
}
