import { Center, Loader } from '@mantine/core';

/** While a page's code or the session check loads. */
export function PageLoader({ label = 'Loading the page' }: { label?: string }) {
  return (
    <Center py="xl" mih={200}>
      <Loader aria-label={label} role="status" />
    </Center>
  );
}
