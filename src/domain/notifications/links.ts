import type { LinkContext } from './types';

/** An API resource path (`<URL_BASE>/api/v1/...`), absolute when arrgo's public URL is known. */
export function apiLink(ctx: LinkContext, path: string): string {
  return `${ctx.publicUrl ?? ctx.urlBase}/api/v1${path}`;
}

/** The Temporal Web UI's list of arrgo's workflows (its namespace), when the UI's address is known. */
export function temporalWorkflowsLink(ctx: LinkContext): string | null {
  if (!ctx.temporalUiUrl) return null;
  return `${ctx.temporalUiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(ctx.namespace)}/workflows`;
}

/** The workflow's page in the Temporal Web UI, when the UI's address is known. */
export function temporalLink(ctx: LinkContext, workflowId: string | null): string | null {
  const workflows = temporalWorkflowsLink(ctx);
  if (!workflowId || !workflows) return null;
  return `${workflows}/${encodeURIComponent(workflowId)}`;
}
