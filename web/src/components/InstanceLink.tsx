import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** An instance's name, linking to its page. */
export function InstanceLink({ instance }: { instance: { id: number; name: string } }) {
  return (
    <Anchor component={Link} to={`/instances/${instance.id}`}>
      {instance.name}
    </Anchor>
  );
}
