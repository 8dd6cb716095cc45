import type { Instance } from '../../api/types';
import { StatusBadge } from '../../components/StatusBadge';

/** What the last connection test found: verified, or unverified with the API's reason code. */
export function VerificationBadge({ instance }: { instance: Instance }) {
  const { status, reason } = instance.verification;
  return <StatusBadge status={status} label={reason ? `${status}: ${reason}` : undefined} />;
}
