import type { ArrClient } from '../../clients/arr-client';
import { AppRequestError } from '../../clients/http';
import { arrTypeOfAppName, type ArrType } from '../../domain/arr-types';
import { appMismatchEvidence, type AppCallFailure, type FailureEvidence } from '../../domain/failure-evidence';

/** What the app at an instance's URL says it is (system/status), bounded for storing and showing. */
export interface AppIdentity {
  appName: string;
  version: string;
  /** The family of the app that answered; null for an app arrgo does not manage. */
  arrType: ArrType | null;
}

export type IdentityCheck =
  | { status: 'matches'; identity: AppIdentity }
  | { status: 'mismatch'; identity: AppIdentity; evidence: FailureEvidence }
  | { status: 'failed'; failure: AppCallFailure; httpStatus?: number };

/**
 * Asks the app who it is and checks that against the client's family: the first call of every
 * connection test, preview, apply attempt, drift check and compare read, so that no configuration
 * of one family is read as, or written into, an app of another. A failed call is returned as its
 * classified failure, never thrown.
 */
export async function checkAppIdentity(client: Pick<ArrClient, 'arrType' | 'identify'>): Promise<IdentityCheck> {
  let reported: { appName: string; version: string };
  try {
    reported = await client.identify();
  } catch (error) {
    if (!(error instanceof AppRequestError)) throw error;
    return { status: 'failed', failure: error.failure, httpStatus: error.status };
  }
  const identity: AppIdentity = { appName: bounded(reported.appName, 100), version: bounded(reported.version, 50), arrType: arrTypeOfAppName(reported.appName) };
  if (identity.arrType === client.arrType) return { status: 'matches', identity };
  return { status: 'mismatch', identity, evidence: appMismatchEvidence(client.arrType, identity.arrType) };
}

/** App-reported text as arrgo keeps it: no control characters, at most `max` characters. */
function bounded(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max);
}
