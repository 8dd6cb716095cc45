/**
 * The RestController conventions the apps share: POST answers 201 with the created resource, PUT
 * 202 with the updated one, DELETE 200 with no body; PUT validates the id (taken from the route when
 * the body has none); DELETE rejects ids <= 0; POST refuses a body that carries an id (the repository
 * cannot insert a model with an existing id).
 */
import { httpErrors } from '../http-errors';
import type { HandlerResult, RequestContext } from '../router';
import { rules, type Failure } from '../validation/failures';

export const ok = (body: unknown): HandlerResult => ({ status: 200, body });
export const created = (body: unknown): HandlerResult => ({ status: 201, body });
export const accepted = (body: unknown): HandlerResult => ({ status: 202, body });
export const deleted = (): HandlerResult => ({ status: 200 });

/** Throws the 400 validation response when there are failures. */
export function check(failures: Failure[]): void {
  if (failures.length > 0) throw httpErrors.validation(failures);
}

/**
 * PUT: the route id is mapped onto a body without one, then the shared validator (given as a function:
 * some rules depend on the id) and the PutValidator (Id > 0) run.
 */
export function validateForPut(ctx: RequestContext, resource: { id: number }, shared: () => Failure[]): void {
  if (resource.id === 0 && ctx.id !== undefined) resource.id = ctx.id;
  check([...shared(), ...rules.greaterThan('Id', resource.id, 0)]);
}

export function validateForPost(shared: Failure[]): void {
  check(shared);
}

/** BasicRepository.Insert refuses models that already have an id. */
export function refuseInsertWithId(resource: { id: number }): void {
  if (resource.id !== 0) throw httpErrors.unhandled('System.InvalidOperationException', `Can't insert model with existing ID ${resource.id}`);
}

/** RestController.ValidateId for DELETE (and PUT routes with an id). */
export function requireValidRouteId(ctx: RequestContext): number {
  const id = ctx.id ?? 0;
  if (id <= 0) throw httpErrors.api(400, `${id} is not a valid ID`);
  return id;
}

/** An unhandled NullReferenceException, where the app dereferences a null the client sent. */
export function nullReference(): never {
  throw httpErrors.unhandled('System.NullReferenceException', 'Object reference not set to an instance of an object.');
}
