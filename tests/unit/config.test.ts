import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { parseEnv } from "node:util";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/platform/config.server";
import { CONFIG_VARIABLES, TEST_SUITE_VARIABLES } from "~/platform/environment.server";
import { ENV_FILE_VARIABLE } from "../../scripts/launch/env-file.mjs";
import { markdownTable } from "../helpers/markdown";

describe("configuration", () => {
  it("has working defaults for a fresh machine", () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.social.chatCommunity).toMatch(/^https:\/\//);
    expect(config.rulebook).toEqual({ embedUrl: undefined, pdfPath: undefined });
  });

  it("treats empty variables as unset", () => {
    const config = parseConfig({ DATABASE_URL: "", PORT: "", TRUST_PROXY: "" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(3000);
    expect(config.trustProxy).toBe(false);
  });

  it("reads every setting", () => {
    const config = parseConfig({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/srv/hopewell",
      DATABASE_URL: "postgres://hopewell@db.internal:5432/hopewell",
      TRUST_PROXY: "true",
      RULEBOOK_PDF: "rules.pdf",
      MAP_EMBED_URL: "https://maps.example.com/embed?q=1",
    });
    expect(config).toMatchObject({ port: 8080, host: "127.0.0.1", dataDir: "/srv/hopewell", trustProxy: true });
    expect(config.rulebook.pdfPath).toBe("/srv/hopewell/rules.pdf");
    expect(config.mapEmbedUrl).toBe("https://maps.example.com/embed?q=1");
  });

  it("keeps the club's clocks in New York unless CLUB_TIME_ZONE names another tz database zone", () => {
    expect(parseConfig({}).clubTimeZone).toBe("America/New_York");
    expect(parseConfig({ CLUB_TIME_ZONE: "America/Chicago" }).clubTimeZone).toBe("America/Chicago");
    expect(parseConfig({ CLUB_TIME_ZONE: " Europe/London " }).clubTimeZone).toBe("Europe/London");
    // Spelled as in the database: the calendar files' TZID must match their VTIMEZONE exactly.
    for (const bad of ["Mars/Olympus_Mons", "america/new_york", "Eastern"]) {
      expect(() => parseConfig({ CLUB_TIME_ZONE: bad }), bad).toThrow(
        /CLUB_TIME_ZONE: must be a time zone name such as America\/New_York/,
      );
    }
  });

  it("names every bad value clearly", () => {
    let error: unknown;
    try {
      parseConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", RULEBOOK_PDF: "../etc/passwd", TRUST_PROXY: "maybe" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(message).toMatch(/RULEBOOK_PDF: must be the name of a \.pdf file inside DATA_DIR/);
    expect(message).toMatch(/TRUST_PROXY/);
  });

  it("names the Stripe setting that is missing or wrong, and takes test-mode and live keys", () => {
    const webhookSecret = "whsec_0123456789abcdef";
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_51Hopewell" })).toThrow(
      /- STRIPE_WEBHOOK_SECRET: is needed with STRIPE_SECRET_KEY/,
    );
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_51Hopewell", STRIPE_WEBHOOK_SECRET: "" })).toThrow(
      /- STRIPE_WEBHOOK_SECRET: is needed/,
    );
    expect(() => parseConfig({ STRIPE_WEBHOOK_SECRET: webhookSecret })).toThrow(
      /- STRIPE_SECRET_KEY: is needed with STRIPE_WEBHOOK_SECRET/,
    );
    for (const madeUp of ["sk_madeup", "sk_1234", "pk_test_51Hopewell", "whsec_123"]) {
      expect(() => parseConfig({ STRIPE_SECRET_KEY: madeUp, STRIPE_WEBHOOK_SECRET: webhookSecret }), madeUp).toThrow(
        /- STRIPE_SECRET_KEY: must be a secret key \(sk_test_\.\.\. or sk_live_\.\.\.\)/,
      );
    }
    for (const key of ["sk_test_51Hopewell", "sk_live_51Hopewell", "rk_test_51Hopewell", "rk_live_51Hopewell"]) {
      expect(parseConfig({ STRIPE_SECRET_KEY: key, STRIPE_WEBHOOK_SECRET: webhookSecret }).stripe?.secretKey, key).toBe(
        key,
      );
    }
  });

  it("takes the test suite's CAPTCHA work only outside production", () => {
    expect(() => parseConfig({ NODE_ENV: "production", CAPTCHA_TEST_WORK: "5" })).toThrow(
      /CAPTCHA_TEST_WORK: is for the test suite only/,
    );
    expect(() => parseConfig({ CAPTCHA_TEST_WORK: "5" }), "production is the default").toThrow(ConfigError);
    expect(parseConfig({ NODE_ENV: "production" }).captcha.testWork).toBeUndefined();
    expect(parseConfig({ NODE_ENV: "test", CAPTCHA_TEST_WORK: "5" }).captcha.testWork).toBe(5);
  });

  it("lists every variable it reads in the README's configuration table, and no other", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const listed = markdownTable(readme, ["variable", "default", "meaning"]).flatMap(([variable]) =>
      [...variable!.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!),
    );
    // The settings file's own variable is read before the configuration is (scripts/launch/env-file.mjs).
    const read = [...CONFIG_VARIABLES.filter((name) => !TEST_SUITE_VARIABLES.includes(name)), ENV_FILE_VARIABLE];
    expect([...listed].sort()).toEqual([...read].sort());
  });

  it("documents every variable in .env.example, but the test suite's own", () => {
    const example = fs.readFileSync(".env.example", "utf8");
    const missing = CONFIG_VARIABLES.filter(
      (name) =>
        name !== "NODE_ENV" && !TEST_SUITE_VARIABLES.includes(name) && !new RegExp(`^${name}=`, "m").test(example),
    );
    expect(missing).toEqual([]);
  });

  it("has an .env.example a shell can source, giving the values the server reads from it", () => {
    // Operators source .env to run a command by hand (`set -a; . ./.env`) and systemd reads it too:
    // an unquoted "Hopewell <no-reply@...>" was a shell syntax error.
    const shell = execFileSync("bash", ["-c", "set -a; . ./.env.example; env -0"], {
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    const sourced = Object.fromEntries(
      shell
        .split("\0")
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    const read = parseEnv(fs.readFileSync(".env.example", "utf8"));
    for (const [name, value] of Object.entries(read)) expect(sourced[name], name).toBe(value);
    expect(read.MAIL_FROM).toBe("Hopewell <no-reply@hopewell.local>");
    expect(() => parseConfig(read)).not.toThrow();
  });
});
