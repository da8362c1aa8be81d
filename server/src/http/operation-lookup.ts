import type { RequestHandler } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import { allowHeader, operationMethods } from '../../../lib/contract.ts';
import { requireFromValidator } from './validator-internals.ts';

/** What express-openapi-validator's metadata step reads from its OpenApiContext (framework/openapi.context.js). */
interface RouteMethods {
  basePath: string;
  _openApiRoute: string;
  _expressRoute: string;
  [method: string]: unknown;
}
interface OpenApiContext {
  expressRouteMap: Record<string, RouteMethods>;
  openApiRouteMap: Record<string, RouteMethods>;
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  serial: number;
  ignoreUndocumented: boolean;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}
interface ResponseApiDoc {
  paths: Record<string, Record<string, unknown>>;
}
interface ValidatorClass {
  prototype: { metadataMiddleware(context: OpenApiContext, responseApiDoc?: ResponseApiDoc): RequestHandler };
}
type PathToRegexp = (path: string, options: object) => { regexp: RegExp; keys: { name: string }[] };

/** One path of the contract, compiled once: its matcher and its operations' schemas by method. */
interface CompiledRoute {
  expressRoute: string;
  openApiRoute: string;
  regexp: RegExp;
  paramNames: string[];
  requestSchemas: Map<string, unknown>;
  responseSchemas: Map<string, unknown>;
  allow: string;
}

/** Path segments, a trailing `/` aside (path-to-regexp accepts one unless routing is strict). */
const segmentsOf = (path: string) =>
  (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/').length;

/**
 * The routes of the contract compiled once and grouped by their number of path segments (a parameter never
 * spans a `/`), in the validator's own order: a request is tried against the few paths of its length only.
 */
function compileRoutes(
  context: OpenApiContext,
  responseApiDoc: ResponseApiDoc | undefined,
  pathToRegexp: PathToRegexp,
  matching: { sensitive: boolean; trailing: boolean },
) {
  const bySegments = new Map<number, CompiledRoute[]>();
  for (const [expressRoute, methods] of Object.entries(context.expressRouteMap)) {
    const openApiRoute = methods._openApiRoute;
    const pathKey = openApiRoute.substring(methods.basePath.length);
    const operations = operationMethods(context.apiDoc.paths[pathKey] ?? {});
    const { regexp, keys } = pathToRegexp(expressRoute, matching);
    const route: CompiledRoute = {
      expressRoute,
      openApiRoute,
      regexp,
      paramNames: keys.map((key) => key.name),
      requestSchemas: new Map(operations.map((method) => [method, context.apiDoc.paths[pathKey]?.[method]])),
      responseSchemas: new Map(operations.map((method) => [method, responseApiDoc?.paths[pathKey]?.[method]])),
      allow: allowHeader(operations),
    };
    const length = segmentsOf(expressRoute);
    bySegments.set(length, [...(bySegments.get(length) ?? []), route]);
  }
  return bySegments;
}

/** The path parameter of a request whose percent-escapes do not decode (`%E0%A4%A`), found by the lookup. */
const malformedEscapes = new WeakMap<object, string>();

/**
 * The path parameter of this request whose percent-escapes do not decode, if any: a 400 naming it after
 * authentication (`requireStorableInput`), as the contract orders the checks; the validator named the whole URL.
 */
export const malformedPathParameter = (req: object): string | undefined => malformedEscapes.get(req);

/**
 * express-openapi-validator finds a request's operation by compiling and trying every path of the contract, in
 * turn, on every request (dist/middlewares/openapi.metadata.js, `lookupRoute`; upstream
 * cdimascio/express-openapi-validator#1217): about a tenth of a GET's CPU. This replaces that one step with the
 * same answer from routes compiled once at its first request: the same `req.openapi` and `req.params`, the same
 * errors (405 with `Allow`, 404 for an unknown path under a base path), the same first-match order; a malformed
 * percent-escape is noted (`malformedPathParameter`) for a 400 naming the path parameter once the request is
 * authenticated, and a HEAD is its path's GET. Everything after it (security, validation, coercion) is the
 * validator's own. Call once, before the validator handles requests.
 */
export function compileOperationLookup(): void {
  const { OpenApiValidator } = requireFromValidator('./openapi.validator') as { OpenApiValidator: ValidatorClass };
  const { pathToRegexp } = requireFromValidator('path-to-regexp') as { pathToRegexp: PathToRegexp };
  const prototype = OpenApiValidator.prototype as ValidatorClass['prototype'] & { compiledLookup?: true };
  if (prototype.compiledLookup) return;
  prototype.compiledLookup = true;
  prototype.metadataMiddleware = (context, responseApiDoc) => {
    let routes: Map<number, CompiledRoute[]> | undefined;
    return (req, _res, next) => {
      // By the app's `case sensitive routing` and `strict routing`, as Express 5's router reads them: the
      // validator passes `strict` to path-to-regexp 8, which knows it as `trailing` and ignored it.
      routes ??= compileRoutes(context, responseApiDoc, pathToRegexp, {
        sensitive: req.app.enabled('case sensitive routing'),
        trailing: !req.app.enabled('strict routing'),
      });
      const path = req.originalUrl.split('?')[0] ?? '';
      if (context.shouldIgnoreRoute(path)) return next();
      // HEAD is served as the path's GET, whose body Node leaves out (RFC 9110 › 9.3.2); the validator said 405.
      const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
      for (const route of routes.get(segmentsOf(path)) ?? []) {
        const matched = route.regexp.exec(path);
        if (!matched) continue;
        const schema = route.requestSchemas.get(method);
        if (!schema) {
          if (context.ignoreUndocumented) return next();
          throw new validatorErrors.MethodNotAllowed({
            path: req.path,
            message: `${req.method} method not allowed`,
            headers: { Allow: route.allow },
          });
        }
        const pathParams: Record<string, string> = {};
        route.paramNames.forEach((name, index) => {
          const raw = matched[index + 1] ?? '';
          try {
            pathParams[name] = decodeURIComponent(raw);
          } catch {
            // A validation error, answered after authentication as every other (malformedPathParameter).
            pathParams[name] = raw;
            malformedEscapes.set(req, name);
          }
        });
        (req as typeof req & { openapi: unknown }).openapi = {
          expressRoute: route.expressRoute,
          openApiRoute: route.openApiRoute,
          pathParams,
          schema,
          serial: context.serial,
          ...(responseApiDoc ? { _responseSchema: route.responseSchemas.get(method) } : {}),
        };
        req.params = pathParams;
        return next();
      }
      if (context.isManagedRoute(path) && !context.ignoreUndocumented) {
        throw new validatorErrors.NotFound({ path: req.path, message: 'not found' });
      }
      next();
    };
  };
}
