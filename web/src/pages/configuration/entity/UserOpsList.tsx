import { Code, Text } from '@mantine/core';
import { useRevertUserOp, useUserOps, type PortableType, type UserOp } from '../../../api/pcd';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { DataTable } from '../../../components/DataTable';
import { ErrorDisplay } from '../../../components/ErrorDisplay';
import { Empty, QueryState } from '../../../components/QueryState';
import { StatusBadge } from '../../../components/StatusBadge';
import { TimeAgo } from '../../../components/TimeAgo';

/** The user ops on one entity, in replay order, each with how it replays now and a revert (and its SQL in advanced mode). */
export function UserOpsList({ databaseId, portableType, name, showSql }: { databaseId: number; portableType: PortableType; name: string; showSql: boolean }) {
  const ops = useUserOps(databaseId);
  const revert = useRevertUserOp(databaseId);
  return (
    <QueryState query={ops} loadingLabel="Loading the user ops">
      {(all) => {
        const mine = all.filter((op) => op.target.portableType === portableType && op.target.name === name);
        if (!mine.length) return <Empty title="No user ops" description="This entity is as the base layer gives it: no edit of yours applies to it." />;
        return (
          <>
            {revert.error ? <ErrorDisplay error={revert.error} title="Not reverted" /> : null}
            <DataTable
              label="User ops"
              minWidth={640}
              rows={mine}
              rowKey={(op) => op.id}
              columns={[
                { label: 'Op', cell: (op) => <Code>{op.id}</Code> },
                { label: 'What', cell: (op) => <Text size="sm">{op.summary ?? op.kind ?? 'edit'}</Text> },
                ...(showSql ? [{ label: 'SQL', cell: (op: UserOp) => <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxWidth: 480 }}>{op.sql}</Code> }] : []),
                { label: 'Replay', cell: (op) => <StatusBadge status={op.outcome.status} label={op.outcome.reason ? `${op.outcome.status}: ${op.outcome.reason}` : op.outcome.status} /> },
                { label: 'When', cell: (op) => <TimeAgo iso={op.createdAt} /> },
                {
                  label: 'Actions',
                  cell: (op) => (
                    <ConfirmButton
                      size="compact-sm"
                      variant="default"
                      aria-label={`Revert op ${op.id}`}
                      title={`Revert op ${op.id}?`}
                      message={`The op is removed from the user layer (a snapshot is taken first); ${name} falls back to what the remaining layers give.`}
                      loading={revert.isPending}
                      onConfirm={() => revert.mutateAsync(op.id).catch(() => undefined)}
                    >
                      Revert
                    </ConfirmButton>
                  ),
                },
              ]}
            />
          </>
        );
      }}
    </QueryState>
  );
}
