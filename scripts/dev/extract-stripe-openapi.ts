/**
 * Cuts Stripe's published OpenAPI description (spec3.json or spec3.yaml of the stripe/openapi
 * repository, about 8 MB) down to the requests the site sends, and writes it to
 * tests/fixtures/stripe-openapi.json, where the tests' Stripe stand-in checks every request
 * against it (tests/helpers/stripe-openapi.ts).
 *
 *   node --import tsx scripts/dev/extract-stripe-openapi.ts <spec3.json|spec3.yaml> --commit <sha> [--path openapi/spec3.yaml]
 *     [--newer scripts/dev/stripe-openapi-newer.json]
 *
 * Kept for each operation: its path and query parameters and its form-encoded request body,
 * with every component schema they reach. Responses are left out (the stand-in builds its own
 * answers; their schemas reach most of the API), and so are descriptions (the API reference has
 * them), which keeps the fixture small. When the site sends a new kind of request, add it to
 * OPERATIONS and run this again on the newest description.
 *
 * --newer names operations copied, parameters and body whole, from a newer description than the
 * one given, with that description's commit; the fixture lists them under x-source.newer.
 * scripts/dev/stripe-openapi-newer.json holds the list of Checkout Sessions (its `created`
 * filter, which the reconciliation job sends, came after the description the fixture is cut
 * from). Drop it once the fixture is cut from a description that has them.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";

/** Every Stripe API call the site makes (app/features/tickets), method and path template. */
export const OPERATIONS = [
  ["get", "/v1/account"],
  ["get", "/v1/balance"],
  ["get", "/v1/checkout/sessions"],
  ["post", "/v1/checkout/sessions"],
  ["get", "/v1/checkout/sessions/{session}"],
  ["post", "/v1/checkout/sessions/{session}/expire"],
  ["get", "/v1/refunds"],
  ["post", "/v1/refunds"],
] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A schema without its prose: `description` is dropped where it is a keyword, never where it
 * names a parameter (`properties.description`, as in product_data[description]).
 */
function withoutProse(value: Json, inPropertyMap = false): Json {
  if (Array.isArray(value)) return value.map((item) => withoutProse(item));
  if (!isObject(value)) return value;
  const kept: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (!inPropertyMap && (key === "description" || key === "summary")) continue;
    kept[key] = withoutProse(child, !inPropertyMap && key === "properties");
  }
  return kept;
}

/** The names of the component schemas a value refers to, directly. */
function refsIn(value: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") {
        const match = child.match(/^#\/components\/schemas\/(.+)$/);
        if (!match) throw new Error(`Only component schema references are expected, found ${child}`);
        found.add(match[1]!);
      } else refsIn(child, found);
    }
  }
  return found;
}

type Source = { repository: string; path: string; commit: string };
type Newer = { source: Source; paths: Record<string, JsonObject> };

export function extractStripeOpenapi(spec: JsonObject, source: Source, newer?: Newer): JsonObject {
  const paths = spec.paths as Record<string, JsonObject>;
  const schemas = ((spec.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, Json>;
  const kept: Record<string, JsonObject> = {};
  for (const [method, path] of OPERATIONS) {
    const operation = paths[path]?.[method];
    if (!isObject(operation)) throw new Error(`The description has no ${method.toUpperCase()} ${path}`);
    const requestBody = operation.requestBody as JsonObject | undefined;
    const form = isObject(requestBody)
      ? ((requestBody.content as JsonObject)["application/x-www-form-urlencoded"] as JsonObject | undefined)
      : undefined;
    const entry: JsonObject = {
      operationId: operation.operationId as string,
      parameters: withoutProse(operation.parameters ?? []),
    };
    if (isObject(requestBody) && form)
      entry.requestBody = {
        required: requestBody.required ?? false,
        content: { "application/x-www-form-urlencoded": withoutProse(form) },
      };
    kept[path] = { ...kept[path], [method]: entry };
  }
  const replaced: string[] = [];
  for (const [path, operations] of Object.entries(newer?.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!kept[path]?.[method])
        throw new Error(`${method.toUpperCase()} ${path} from the newer description is not one the site sends`);
      kept[path] = { ...kept[path], [method]: withoutProse(operation) };
      replaced.push(`${method.toUpperCase()} ${path}`);
    }
  }
  // Every schema the kept requests reach, and the ones those reach.
  const reached: Record<string, Json> = {};
  const pending = [...refsIn(kept as Json)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in reached) continue;
    if (!(name in schemas)) throw new Error(`The description refers to a schema it lacks: ${name}`);
    reached[name] = withoutProse(schemas[name]!);
    pending.push(...refsIn(reached[name]!));
  }
  const info = spec.info as JsonObject;
  return {
    openapi: spec.openapi as string,
    info: { title: info.title as string, version: info.version as string },
    "x-source": {
      ...source,
      apiVersion: info.version as string,
      operations: OPERATIONS.map(([method, path]) => `${method.toUpperCase()} ${path}`),
      ...(newer ? { newer: { ...newer.source, operations: replaced } } : {}),
    },
    paths: kept,
    components: { schemas: reached },
  };
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      commit: { type: "string" },
      path: { type: "string", default: "openapi/spec3.json" },
      repository: { type: "string", default: "stripe/openapi" },
      newer: { type: "string" },
      out: {
        type: "string",
        default: fileURLToPath(new URL("../../tests/fixtures/stripe-openapi.json", import.meta.url)),
      },
    },
  });
  const [input] = positionals;
  if (!input || !values.commit) {
    console.error(
      "Usage: node --import tsx scripts/dev/extract-stripe-openapi.ts <spec3.json|spec3.yaml> --commit <stripe/openapi commit> [--path openapi/spec3.json] [--newer file] [--out file]",
    );
    process.exit(2);
  }
  const text = fs.readFileSync(input, "utf8");
  const spec = (input.endsWith(".json") ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as JsonObject;
  const newer = values.newer ? (JSON.parse(fs.readFileSync(values.newer, "utf8")) as Newer) : undefined;
  const fixture = extractStripeOpenapi(
    spec,
    { repository: values.repository!, path: values.path!, commit: values.commit },
    newer,
  );
  fs.writeFileSync(values.out!, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(
    `Wrote ${values.out} (${Math.round(fs.statSync(values.out!).size / 1024)} KB, API version ${(fixture.info as JsonObject).version})`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) main();
