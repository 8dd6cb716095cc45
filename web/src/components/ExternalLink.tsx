import { Anchor } from '@mantine/core';

/** A link out of the console (the Temporal Web UI), opened in a new tab; absent when there is no address. */
export function ExternalLink({ href, children, label }: { href: string | null | undefined; children: string; label?: string }) {
  if (!href) return null;
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" size="sm" aria-label={label}>
      {children}
    </Anchor>
  );
}
