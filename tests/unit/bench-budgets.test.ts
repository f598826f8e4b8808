import { describe, expect, it } from "vitest";
import { type BenchRun, budgetChecks, FLOOR_PAGE, type PageResult } from "../../bench/budgets";

const page = (
  group: PageResult["group"],
  name: string,
  reqPerSec: number,
  p99: number,
  aloneP99?: number,
): PageResult => ({
  group,
  name,
  reqPerSec,
  p50: p99 / 2,
  p99,
  non2xx: 0,
  errors: 0,
  runs: [reqPerSec],
  ...(aloneP99 === undefined ? {} : { aloneP99 }),
});

const run: BenchRun = {
  kind: "pglite",
  coldStartMs: 2100,
  coldStartRuns: [2000, 2100, 2300],
  idleRssMb: 207,
  peakRssMb: 300,
  results: [
    page("anonymous", "/ (signed out)", 9000, 3),
    page("floor", FLOOR_PAGE, 700, 20),
    page("signed-in", "/profile (player)", 548, 30),
    page("signed-in", "/events (player)", 239, 120),
    page("review", "/view-letters?q=lantern", 100, 207, 90),
  ],
  weights: [
    { page: "/", htmlBytes: 4000, jsBytes: 0, cssBytes: 9000, scripts: 0 },
    { page: "/rulebook", htmlBytes: 4000, jsBytes: 500_000, cssBytes: 9000, scripts: 0 },
    { page: "/auth", htmlBytes: 2000, jsBytes: 31_000, cssBytes: 9000, scripts: 3 },
  ],
  lighthouse: [{ page: "/auth", performance: 94, accessibility: 100, performanceRuns: [94, 95, 93], failedRuns: [] }],
};

describe("the benchmark's budgets", () => {
  const checks = budgetChecks([run], 20_000);
  const verdict = (budget: string) => checks.find((check) => check.budget === budget)?.verdict;

  it("passes what meets its budget and flags what does not", () => {
    expect(verdict("pglite / (signed out) ≥ 50% of ceiling")).toBe("OVER BUDGET");
    expect(verdict("pglite /profile (player) ≥ 300 req/s")).toBe("ok");
    expect(verdict("pglite /events (player) ≥ 300 req/s")).toBe("OVER BUDGET");
    expect(verdict("pglite /events (player) p99 < 100 ms")).toBe("OVER BUDGET");
    expect(verdict("pglite /view-letters?q=lantern p99 < 200 ms")).toBe("OVER BUDGET");
    expect(verdict("pglite /view-letters?q=lantern, one visitor, p99 < 200 ms")).toBe("ok");
    expect(verdict("pglite idle RSS ≤ 250 MB")).toBe("ok");
    expect(verdict("pglite cold start < 2000 ms")).toBe("OVER BUDGET");
    expect(verdict("/auth JavaScript ≤ 100 KB compressed")).toBe("ok");
    expect(verdict("Lighthouse /auth performance ≥ 95")).toBe("OVER BUDGET");
    expect(verdict("Lighthouse /auth accessibility ≥ 95")).toBe("ok");
  });

  it("holds a page drawn from memory to the embedded database's figure on PostgreSQL too, and a page that reads to PostgreSQL's", () => {
    const onPostgres = (result: PageResult, budget: string) =>
      budgetChecks([{ ...run, kind: "postgres", results: [result] }], 20_000).find((check) => check.budget === budget)
        ?.verdict;
    expect(onPostgres(page("signed-in", "/events (player)", 239, 50), "postgres /events (player) ≥ 300 req/s")).toBe(
      "OVER BUDGET",
    );
    expect(onPostgres(page("signed-in", "/events (player)", 320, 50), "postgres /events (player) ≥ 300 req/s")).toBe(
      "ok",
    );
    expect(
      onPostgres(
        page("signed-in", "/letters?tab=box (player)", 362, 44),
        "postgres /letters?tab=box (player) ≥ 300 req/s",
      ),
    ).toBe("ok");
    // A signed-in page that reads the database on every visit.
    expect(
      onPostgres(page("signed-in", "/view-research (player)", 362, 44), "postgres /view-research (player) ≥ 400 req/s"),
    ).toBe("OVER BUDGET");
  });

  it("reports the floor and shares of it without judging them", () => {
    expect(checks.find((check) => check.budget === `pglite ${FLOOR_PAGE} (reported, decision 0015)`)).toEqual({
      budget: `pglite ${FLOOR_PAGE} (reported, decision 0015)`,
      figure: "700 req/s, p99 20 ms",
      verdict: "reported",
    });
    expect(checks.find((check) => check.budget.startsWith("pglite /profile (player) as a share"))?.figure).toBe("78%");
  });

  it("weighs the JavaScript of the home and sign-in pages only", () => {
    expect(checks.filter((check) => check.budget.includes("JavaScript")).map((check) => check.budget)).toEqual([
      "/ JavaScript ≤ 100 KB compressed",
      "/auth JavaScript ≤ 100 KB compressed",
    ]);
  });

  it("holds review pages at --scale to half again an earlier run's p99", () => {
    const scaled = budgetChecks([run], 20_000, {
      runs: [{ kind: "pglite", results: [{ group: "review", name: "/view-letters?q=lantern", p99: 130 }] }],
    });
    expect(
      scaled.find((check) => check.budget === "pglite /view-letters?q=lantern p99 ≤ 1.5× 130 ms (baseline)")?.verdict,
    ).toBe("OVER BUDGET");
  });
});
