import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

/**
 * Checks a request to Stripe's API as Stripe itself would, for the tests' Stripe stand-in:
 * against Stripe's published OpenAPI description of the requests the site sends
 * (tests/fixtures/stripe-openapi.json, cut by scripts/dev/extract-stripe-openapi.ts), then
 * against the documented rules the description cannot express, and the idempotency keys'
 * rule. Refusals are shaped like Stripe's own error bodies, with Stripe's wording where known.
 */

type Schema = { [keyword: string]: unknown };
type Params = { [name: string]: unknown };

export type StripeRequest = {
  method: string;
  /** The path without its query, as /v1/checkout/sessions/cs_test_123. */
  path: string;
  query?: URLSearchParams | string;
  /** Form-encoded, as the stripe SDK sends it: line_items[0][price_data][currency]=usd. */
  body?: string;
  headers?: Record<string, string | string[] | undefined>;
};

export type StripeError = {
  type: "invalid_request_error" | "idempotency_error";
  message: string;
  param?: string;
  code?: string;
};

export type StripeVerdict =
  | { ok: true; operation: string; params: Params; pathParams: Record<string, string> }
  | { ok: false; status: 400 | 401 | 404; error: StripeError };

type Operation = {
  name: string;
  pattern: RegExp;
  pathNames: string[];
  pathSchemas: Schema[];
  validate: ValidateFunction;
  schema: Schema;
};

const fixture = JSON.parse(fs.readFileSync(new URL("../fixtures/stripe-openapi.json", import.meta.url), "utf8")) as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: (Schema & { in: string; name: string; required?: boolean; schema: Schema })[];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
};

/** ajv-formats is CommonJS: its function is the default export under Node and the module itself under some bundlers. */
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;
const ajv = new Ajv({ strict: false, verbose: true, allErrors: false });
addFormats(ajv);
ajv.addFormat("unix-time", { type: "number", validate: (value: number) => Number.isInteger(value) });
ajv.addFormat("decimal", { type: "string", validate: /^-?\d+(\.\d+)?$/ });
ajv.addFormat("currency", { type: "string", validate: /^[A-Za-z]{3}$/ });

const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Stripe refuses any parameter it does not list, but its description says so
 * (additionalProperties: false) only for the top of each request: nested objects (price_data,
 * payment_intent_data...) list their properties and nothing more. Objects the description
 * leaves open by name (metadata's additionalProperties) stay open.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!isObject(schema)) return schema;
  const copy: Params = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] =
      key === "properties" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, closed(child)]))
        : key === "enum"
          ? value
          : closed(value);
  if (isObject(copy.properties) && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

const operations: Operation[] = Object.entries(fixture.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => {
    const pathNames: string[] = [];
    const pattern = new RegExp(
      `^${template.replace(/\{(\w+)\}/g, (_, name: string) => (pathNames.push(name), "([^/]+)"))}$`,
    );
    const parameters = operation.parameters ?? [];
    const body = operation.requestBody?.content["application/x-www-form-urlencoded"]?.schema ?? {
      type: "object",
      properties: {},
    };
    const query = parameters.filter((parameter) => parameter.in === "query");
    const schema = closed({
      ...body,
      type: "object",
      properties: {
        ...(body.properties as Params),
        ...Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])),
      },
      required: [
        ...((body.required as string[] | undefined) ?? []),
        ...query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      ],
      additionalProperties: false,
    }) as Schema;
    const pathSchemas = pathNames.map(
      (name) =>
        parameters.find((parameter) => parameter.in === "path" && parameter.name === name)?.schema ?? {
          type: "string",
        },
    );
    return {
      name: `${method.toUpperCase()} ${template}`,
      pattern,
      pathNames,
      pathSchemas,
      validate: ajv.compile(schema),
      schema,
    };
  }),
);

const refuse = (message: string, param?: string, extra: Partial<StripeError> = {}): StripeVerdict => ({
  ok: false,
  status: 400,
  error: { type: "invalid_request_error", message, ...(param ? { param } : {}), ...extra },
});

/** ["line_items", 0, "price_data"] as Stripe names it: line_items[0][price_data]. */
const paramName = (segments: (string | number)[]) =>
  segments.map((segment, index) => (index === 0 ? `${segment}` : `[${segment}]`)).join("");

/** The form's pairs as nested objects, every leaf a string; arrays stay objects keyed by index until the schema says otherwise. */
export function decodeStripeForm(
  form: URLSearchParams | string,
): { ok: true; params: Params } | { ok: false; param: string } {
  const params: Params = {};
  for (const [key, value] of new URLSearchParams(form)) {
    const match = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    const segments = match
      ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((found) => found[1]!)]
      : undefined;
    if (
      !segments ||
      segments.some((segment) => segment === "__proto__" || segment === "constructor" || segment === "prototype")
    )
      return { ok: false, param: key };
    let node = params;
    for (const [index, segment] of segments.entries()) {
      const name = segment === "" ? String(Object.keys(node).length) : segment;
      if (index === segments.length - 1) {
        if (isObject(node[name])) return { ok: false, param: key };
        node[name] = value;
      } else {
        node[name] ??= {};
        if (!isObject(node[name])) return { ok: false, param: key };
        node = node[name] as Params;
      }
    }
  }
  return { ok: true, params };
}

/** A form's strings as the schema's types: integers, booleans, arrays; anyOf picks the branch the value can be. */
function coerce(value: unknown, schema: Schema | undefined): unknown {
  if (!schema) return value;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    if (value === "" && branches.some((branch) => Array.isArray(branch.enum) && branch.enum.includes(""))) return "";
    const fits =
      branches.find((branch) =>
        isObject(value)
          ? branch.type === "object" || branch.type === "array"
          : branch.type !== "object" && branch.type !== "array" && coerce(value, branch) !== value,
      ) ??
      branches.find((branch) =>
        isObject(value) ? branch.type === "object" || branch.type === "array" : branch.type === "string",
      );
    return fits ? coerce(value, fits) : value;
  }
  switch (schema.type) {
    case "integer":
      return typeof value === "string" && /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))
        ? Number(value)
        : value;
    case "number":
      return typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "array": {
      if (!isObject(value) || !Object.keys(value).every((key) => /^\d+$/.test(key))) return value;
      const items = Object.entries(value)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, item]) => item);
      return items.map((item) => coerce(item, schema.items as Schema | undefined));
    }
    case "object":
    default: {
      if (!isObject(value)) return value;
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const open = isObject(schema.additionalProperties) ? (schema.additionalProperties as Schema) : undefined;
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [key, coerce(child, properties[key] ?? open)]),
      );
    }
  }
}

/** Stripe's message for the first thing the schema refuses. */
function explain(errors: ErrorObject[], params: Params): StripeVerdict {
  // An anyOf's "" branch (unset the value) fails for every other value: its complaint is noise.
  const unsetBranch = (error: ErrorObject) =>
    isObject(error.parentSchema) && isDeepStrictEqual(error.parentSchema.enum, [""]);
  const at = (error: ErrorObject) =>
    error.instancePath
      .split("/")
      .slice(1)
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const valueAt = (segments: string[]) =>
    segments.reduce<unknown>(
      (node, segment) => (isObject(node) || Array.isArray(node) ? (node as Params)[segment] : undefined),
      params,
    );
  // Nor is a branch for objects when a plain value was sent (created=abc is an invalid integer).
  const wrongShape = (error: ErrorObject) =>
    error.keyword === "type" &&
    (error.params.type === "object" || error.params.type === "array") &&
    !isObject(valueAt(at(error)));
  const relevant = errors.filter((error) => error.keyword !== "anyOf" && !unsetBranch(error));
  const candidates = relevant.some((error) => !wrongShape(error))
    ? relevant.filter((error) => !wrongShape(error))
    : relevant;
  const error = [...(candidates.length ? candidates : errors)].sort(
    (a, b) => b.instancePath.length - a.instancePath.length,
  )[0]!;
  const segments = at(error);
  const param = paramName(segments);
  const value = valueAt(segments);
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  switch (error.keyword) {
    case "additionalProperties":
      return refuse(
        `Received unknown parameter: ${paramName([...segments, error.params.additionalProperty as string])}`,
        paramName([...segments, error.params.additionalProperty as string]),
      );
    case "required":
      return refuse(
        `Missing required param: ${paramName([...segments, error.params.missingProperty as string])}.`,
        paramName([...segments, error.params.missingProperty as string]),
      );
    case "enum":
      return refuse(
        `Invalid ${param}: must be one of ${listOf((error.params.allowedValues as unknown[]).map(String))}`,
        param,
      );
    case "maxLength":
      return refuse(
        `Invalid string: ${shown.slice(0, 10)}...; must be at most ${error.params.limit} characters`,
        param,
      );
    case "type":
    case "format": {
      const expected =
        error.keyword === "format"
          ? error.params.format === "decimal"
            ? "decimal"
            : "integer"
          : String(error.params.type);
      if (expected === "object" || expected === "array") return refuse(`Invalid ${expected}`, param);
      return refuse(`Invalid ${expected === "number" ? "decimal" : expected}: ${shown}`, param);
    }
    default:
      return refuse(`Invalid ${param}: ${error.message ?? "not allowed"}`, param);
  }
}

/** A request header by its lower-case name, as Node gives them, whatever case the test wrote. */
function header(request: StripeRequest, name: string): string | undefined {
  const found = Object.entries(request.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

const listOf = (values: string[]) =>
  values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")}, or ${values.at(-1)}`;

/**
 * The request against Stripe's description: its operation, its parameters decoded and typed
 * (`params`), or Stripe's refusal (unknown parameter, wrong type, missing required parameter,
 * value out of its enum or too long; an unknown URL is a 404).
 */
export function validateStripeRequest(request: StripeRequest): StripeVerdict {
  const method = request.method.toUpperCase();
  const found = operations.flatMap((operation) => {
    if (!operation.name.startsWith(`${method} `)) return [];
    const match = request.path.match(operation.pattern);
    return match ? [{ operation, values: match.slice(1).map(decodeURIComponent) }] : [];
  })[0];
  if (!found) {
    return {
      ok: false,
      status: 404,
      error: {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${method}: ${request.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      },
    };
  }
  // Without headers (a test of parameters alone) there is no key to look for.
  if (request.headers && !header(request, "authorization")?.startsWith("Bearer ")) {
    return {
      ok: false,
      status: 401,
      error: {
        type: "invalid_request_error",
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      },
    };
  }
  const { operation, values } = found;
  for (const [index, value] of values.entries()) {
    const maxLength = operation.pathSchemas[index]?.maxLength as number | undefined;
    if (value === "" || (maxLength !== undefined && value.length > maxLength))
      return refuse(`Invalid ${operation.pathNames[index]}: ${value}`, operation.pathNames[index]);
  }
  const decoded: Params = {};
  for (const form of [request.query ?? "", request.body ?? ""]) {
    const part = decodeStripeForm(form);
    if (!part.ok) return refuse(`Invalid parameter name: ${part.param}`, part.param);
    Object.assign(decoded, part.params);
  }
  const params = coerce(decoded, operation.schema) as Params;
  if (!operation.validate(params)) return explain(operation.validate.errors ?? [], params);
  return {
    ok: true,
    operation: operation.name,
    params,
    pathParams: Object.fromEntries(operation.pathNames.map((name, index) => [name, values[index]!])),
  };
}

const MINUTE = 60;

/**
 * The rules Stripe documents that its description cannot say, for a request the description
 * accepted. `now` is when Stripe receives it (a Checkout Session's creation).
 */
export function checkStripeRules(operation: string, params: Params, now = Date.now()): StripeVerdict {
  const ok: StripeVerdict = { ok: true, operation, params, pathParams: {} };
  const metadata = checkMetadata(params, []);
  if (metadata) return metadata;
  if (operation === "POST /v1/checkout/sessions") {
    const created = Math.floor(now / 1000);
    const expiresAt = params.expires_at as number | undefined;
    // "It can be anywhere from 30 minutes to 24 hours after Checkout Session creation."
    if (expiresAt !== undefined && expiresAt - created < 30 * MINUTE)
      return refuse(
        "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        "expires_at",
      );
    if (expiresAt !== undefined && expiresAt - created > 24 * 60 * MINUTE)
      return refuse(
        "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
        "expires_at",
      );
    for (const name of ["success_url", "cancel_url"] as const) {
      const url = params[name];
      if (typeof url === "string" && !/^https?:$/.test(URL.parse(url)?.protocol ?? ""))
        return refuse("Not a valid URL", name, { code: "url_invalid" });
    }
    const lineItems = (params.line_items as Params[] | undefined) ?? [];
    if (lineItems.length > 0 && params.mode === undefined) return refuse("Missing required param: mode.", "mode");
    if ((params.mode === "payment" || params.mode === "subscription") && lineItems.length === 0)
      return refuse("Missing required param: line_items.", "line_items");
    for (const [index, item] of lineItems.entries()) {
      const at = (name: string) => paramName(["line_items", index, name]);
      if (item.price === undefined && item.price_data === undefined)
        return refuse("You must provide either price or price_data for each line item when using prices.", at("price"));
      if (item.quantity === undefined) return refuse(`Missing required param: ${at("quantity")}.`, at("quantity"));
      if ((item.quantity as number) < 1)
        return refuse("This value must be greater than or equal to 1.", at("quantity"));
      const priceData = item.price_data as Params | undefined;
      if (priceData && priceData.unit_amount === undefined && priceData.unit_amount_decimal === undefined)
        return refuse(`Missing required param: ${at("price_data")}[unit_amount].`, `${at("price_data")}[unit_amount]`);
      if (priceData && typeof priceData.unit_amount === "number" && priceData.unit_amount < 1)
        return refuse("This value must be greater than or equal to 1.", `${at("price_data")}[unit_amount]`);
    }
    if (typeof params.customer_email === "string" && !/^[^@\s]+@[^@\s]+$/.test(params.customer_email))
      return refuse(`Invalid email address: ${params.customer_email}`, "customer_email", { code: "email_invalid" });
  }
  if (operation === "POST /v1/refunds") {
    if (params.charge === undefined && params.payment_intent === undefined)
      return refuse("One of the following params should be provided for this request: charge or payment_intent.");
    if (typeof params.amount === "number" && params.amount < 1)
      return refuse("This value must be greater than or equal to 1.", "amount");
  }
  // "Limit can range between 1 and 100."
  if (typeof params.limit === "number" && (params.limit < 1 || params.limit > 100))
    return refuse(
      `This value must be ${params.limit < 1 ? "greater than or equal to 1" : "less than or equal to 100"}.`,
      "limit",
    );
  return ok;
}

/** Metadata anywhere in a request: at most 50 keys, keys up to 40 characters, values up to 500. */
function checkMetadata(params: Params, at: (string | number)[]): StripeVerdict | undefined {
  for (const [key, value] of Object.entries(params)) {
    if (key === "metadata" && isObject(value)) {
      const name = paramName([...at, key]);
      if (Object.keys(value).length > 50) return refuse("Metadata can have up to 50 keys.", name);
      for (const [field, text] of Object.entries(value)) {
        if (field.length > 40)
          return refuse(
            `Metadata keys can have up to 40 characters, but you passed in a key that is ${field.length} characters long.`,
            name,
          );
        if (typeof text === "string" && text.length > 500)
          return refuse(
            `Metadata values can have up to 500 characters, but you passed in a value that is ${text.length} characters long.`,
            paramName([...at, key, field]),
          );
      }
    } else if (isObject(value) || Array.isArray(value)) {
      const inner = checkMetadata(value as Params, [...at, key]);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Checks every request as Stripe would, one checker for one stand-in (one Stripe account):
 * the description, the documented rules, and Idempotency-Key: a key first used with other
 * parameters, or on another endpoint, is refused; the same request again is accepted (Stripe
 * answers it with the first answer, which the stand-in keeps). A refused request does not
 * take its key, as at Stripe, which saves results only once an endpoint starts executing.
 */
export function stripeRequestChecker() {
  const keys = new Map<string, { operation: string; params: Params }>();
  return {
    check(request: StripeRequest, now = Date.now()): StripeVerdict {
      const verdict = validateStripeRequest(request);
      if (!verdict.ok) return verdict;
      // Stripe ignores the key on GET and DELETE, which are idempotent by definition.
      const key = request.method.toUpperCase() === "POST" ? header(request, "idempotency-key") : undefined;
      const first = key === undefined ? undefined : keys.get(key);
      const endpoint = `${request.method.toUpperCase()} ${request.path}`;
      if (first && first.operation !== endpoint) {
        return {
          ok: false,
          status: 400,
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${first.operation}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        };
      }
      if (first && !isDeepStrictEqual(first.params, verdict.params)) {
        return {
          ok: false,
          status: 400,
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        };
      }
      if (first) return verdict;
      const ruled = checkStripeRules(verdict.operation, verdict.params, now);
      if (!ruled.ok) return ruled;
      if (key !== undefined) keys.set(key, { operation: endpoint, params: verdict.params });
      return verdict;
    },
  };
}
