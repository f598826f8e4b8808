import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * No container engine runs here, so the image is checked against what the tests do run:
 * its start command is `npm run serve`'s (tests/process/npm-start.test.ts serves a copy of
 * the build with production dependencies only that way), it builds with `npm run build`,
 * and it copies every file that test needed.
 */
const dockerfile = fs.readFileSync("Dockerfile", "utf8");
const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
const stages = dockerfile.split(/^FROM /m).slice(1);
const runtime = stages.at(-1)!;
const instruction = (stage: string, name: string) =>
  [...stage.matchAll(new RegExp(`^${name} (.+)$`, "gm"))].map((match) => match[1]!);

describe("the container image", () => {
  it("starts with the serve script's command and variables, as node itself (PID 1 handles SIGTERM)", () => {
    // The script reads "NAME=value ... exec node ...": the image sets the variables, then runs node.
    const [, assignments, command] = /^((?:\S+=\S*\s+)*)exec (.+)$/.exec(scripts.serve!)!;
    const [cmd] = instruction(runtime, "CMD");
    expect((JSON.parse(cmd!) as string[]).join(" ")).toBe(command);
    const environment = runtime.match(/^ENV (?:.*\\\n)*.*$/m)![0];
    for (const assignment of assignments!.trim().split(/\s+/).filter(Boolean))
      expect(environment).toMatch(new RegExp(`(^|\\s)${assignment}(\\s|$)`));
    expect(assignments).toContain("MALLOC_MMAP_THRESHOLD_=");
    expect(instruction(runtime, "STOPSIGNAL")).toEqual(["SIGTERM"]);
  });

  it("builds with the build script and installs production dependencies only for the runtime", () => {
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    const dependencyStage = stages.find((stage) => stage.includes("AS production-dependencies"))!;
    expect(dependencyStage).toMatch(/npm install --omit=dev/);
    expect(runtime).toContain("COPY --from=production-dependencies /app/node_modules ./node_modules");
    expect(runtime).not.toMatch(/npm (ci|install)(?! --omit=dev)/);
  });

  it("copies what a production start needs", () => {
    const copied = instruction(runtime, "COPY").join(" ");
    for (const needed of ["build", "server.mjs", "package.json", "drizzle"]) expect(copied).toContain(needed);
  });

  // A dry build: what `docker build` would refuse before running a step, checked without an engine.
  it("copies from the build context only what is there and not left out by .dockerignore", () => {
    const ignored = fs
      .readFileSync(".dockerignore", "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const sources = stages.flatMap((stage) => instruction(stage, "COPY")).filter((args) => !args.startsWith("--from="));
    expect(sources.length).toBeGreaterThan(3);
    for (const args of sources) {
      for (const source of args.split(/\s+/).slice(0, -1)) {
        expect(fs.existsSync(source), `COPY ${source}: no such file in the checkout`).toBe(true);
        if (source !== ".")
          expect(ignored, `COPY ${source}: left out by .dockerignore`).not.toContain(source.replace(/\/$/, ""));
      }
    }
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:\d+-bookworm-slim$/m);
    for (const stage of stages) expect(stage.split("\n")[0]).toMatch(/^\$\{NODE_IMAGE\}( AS [a-z-]+)?$/);
  });

  it("runs as a user other than root, keeps DATA_DIR in a volume, and checks /healthz", () => {
    expect(instruction(runtime, "USER")).toEqual(["node"]);
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime)![1];
    expect(instruction(runtime, "VOLUME")).toEqual([dataDir]);
    expect(runtime).toMatch(/HEALTHCHECK[^\n]*\\\n\s+CMD .*\/healthz/);
  });

  it("leaves local data, secrets and installed modules out of the build context", () => {
    const ignored = fs.readFileSync(".dockerignore", "utf8").split("\n");
    // A build in progress or left by one killed, and `npm run backup`'s archives of every password hash.
    for (const entry of ["node_modules", "data", ".env", "build", "build.next", "build.old-*", "backups", ".git"])
      expect(ignored).toContain(entry);
  });

  it("runs on PostgreSQL in compose, with an init, the data volume and time to finish requests", () => {
    const compose = fs.readFileSync("compose.yaml", "utf8");
    expect(compose).toMatch(/^\s+init: true$/m);
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/hopewell:\$\{POSTGRES_PASSWORD\}@db:5432\/hopewell/);
    expect(compose).toMatch(/- files:\/data$/m);
    expect(compose).toMatch(/condition: service_healthy/);
    const grace = Number(/stop_grace_period: (\d+)s/.exec(compose)![1]) * 1000;
    expect(grace).toBeGreaterThan(4_000);
  });
});
