import { hashSync } from "bcryptjs";
import { describe, expect, it } from "vitest";
import { matchMerchantItem, orderItems, parseAmountCents } from "~/ops/import/merchant-items.server";
import { bucketPath } from "~/ops/import/research-files.server";
import { matchCabin, matchFaction, matchJob, parseTimestamp, Skip, stableUuid } from "~/ops/import/values.server";
import { isBcryptHash, verifyPassword } from "~/identity/passwords.server";
import { isUuid } from "~/lib/ids";

describe("reading the old export's cells", () => {
  it("matches merchant item keys ignoring case, punctuation and a leading pack count", () => {
    expect(matchMerchantItem("meat")).toBe("meat");
    expect(matchMerchantItem("Meat")).toBe("meat");
    expect(matchMerchantItem("10_bandages")).toBe("bandages");
    expect(matchMerchantItem("10 Bandages")).toBe("bandages");
    expect(matchMerchantItem("iron_ore")).toBe("iron_ore");
    expect(matchMerchantItem("Iron-Ore")).toBe("iron_ore");
    expect(matchMerchantItem("spring_spacers")).toBe("spring_spacers");
    expect(matchMerchantItem("5 Spring Spacers")).toBe("spring_spacers");
    expect(matchMerchantItem("5_springs")).toBe("springs");
    expect(matchMerchantItem("20 bullets")).toBe("bullets");
    expect(matchMerchantItem("unobtainium")).toBeNull();
    expect(matchMerchantItem("")).toBeNull();
  });

  it("adds two spellings of one item together and refuses what is not an order", () => {
    expect(orderItems({ meat: 1, Meat: "2", coal: 0 })).toEqual({ meat: 3 });
    const reason = (items: unknown) => {
      try {
        orderItems(items);
        return null;
      } catch (error) {
        return (error as Skip).message;
      }
    };
    expect(reason({ meat: 1.5 })).toBe('bad quantity for "meat"');
    expect(reason({ meat: -1 })).toBe('bad quantity for "meat"');
    expect(reason({ dragon: 1 })).toBe('unknown merchant item "dragon"');
    expect(reason({ meat: 0 })).toBe("no items ordered");
    expect(reason([1, 2])).toBe("items is not a JSON object");
  });

  it("reads amounts to the cent", () => {
    expect(parseAmountCents("58.50")).toBe(5850);
    expect(parseAmountCents("$5")).toBe(500);
    expect(parseAmountCents("22.5")).toBe(2250);
    expect(parseAmountCents("7.755")).toBe(776);
    expect(parseAmountCents("five")).toBeNull();
    expect(parseAmountCents(null)).toBeNull();
  });

  it("reads ISO 8601 and PostgreSQL timestamps, a time without a zone as UTC", () => {
    expect(parseTimestamp("2025-05-20T18:00:00Z")).toEqual(new Date("2025-05-20T18:00:00Z"));
    expect(parseTimestamp("2023-04-02 11:30:00.123456+00")).toEqual(new Date("2023-04-02T11:30:00.123Z"));
    expect(parseTimestamp("2023-06-04T09:15:00+0200")).toEqual(new Date("2023-06-04T07:15:00Z"));
    expect(parseTimestamp("2023-06-04T09:15")).toEqual(new Date("2023-06-04T09:15:00Z"));
    expect(parseTimestamp("2023-06-04")).toEqual(new Date("2023-06-04T00:00:00Z"));
    expect(parseTimestamp("yesterday")).toBeNull();
    expect(parseTimestamp("2023-13-45")).toBeNull();
    expect(parseTimestamp(null)).toBeNull();
  });

  it("matches factions, jobs and cabins loosely, and nothing else", () => {
    expect(matchFaction("us survey corp")).toBe("US Survey Corp");
    expect(matchFaction("Pirates")).toBeNull();
    expect(matchJob("Hunter/Trapper")).toBe("Hunter / Trapper");
    expect(matchJob("natural-scientist")).toBe("Natural Scientist");
    expect(matchJob("Astronaut")).toBeNull();
    expect(matchCabin("dragons hoard")).toBe("Dragon's Hoard");
    expect(matchCabin(null)).toBeNull();
  });

  it("makes the same UUID from the same row, and another from another", () => {
    const a = stableUuid("pels", "row one");
    expect(isUuid(a)).toBe(true);
    expect(stableUuid("pels", "row one")).toBe(a);
    expect(stableUuid("pels", "row two")).not.toBe(a);
  });

  it("finds <user id>/<file> at the end of a research file's public URL, and nothing outside it", () => {
    expect(bucketPath("https://x.supabase.co/storage/v1/object/public/research/u1/17-ore%20sample.png?t=1")).toEqual([
      "u1",
      "17-ore sample.png",
    ]);
    expect(bucketPath("research/u1/a.pdf")).toEqual(["u1", "a.pdf"]);
    for (const bad of [
      "https://x/research/u1/../../etc/passwd",
      "https://x/research/u1/%2e%2e",
      "https://x/research/u1/a%2Fb.png",
      "https://x/other/u1/a.png",
      "https://x/research/a.png",
    ]) {
      expect(() => bucketPath(bad)).toThrow(Skip);
    }
  });
});

describe("imported passwords", () => {
  it("verifies a bcrypt hash ($2a$ and $2b$) as well as Argon2id", async () => {
    const hash = hashSync("Lantern#1877", 4);
    expect(hash).toMatch(/^\$2b\$04\$/);
    const older = hash.replace("$2b$", "$2a$");
    expect(isBcryptHash(hash) && isBcryptHash(older)).toBe(true);
    expect(await verifyPassword({ hash, password: "Lantern#1877" })).toBe(true);
    expect(await verifyPassword({ hash: older, password: "Lantern#1877" })).toBe(true);
    expect(await verifyPassword({ hash, password: "Lantern#1878" })).toBe(false);
    expect(isBcryptHash("$argon2id$v=19$m=19456,t=2,p=1$abc$def")).toBe(false);
    expect(await verifyPassword({ hash: "$2b$04$short", password: "x" })).toBe(false);
  });
});
