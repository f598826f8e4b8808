import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { bodyLimitFor, FORM_BODY_LIMIT, LONG_FORM_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "../../http/pipeline/body-limit";

const MiB = 1024 * 1024;

describe("request body limits", () => {
  it("gives the research, costume and rulebook forms their file's limit and every other address a form's", () => {
    expect(FORM_BODY_LIMIT).toBe(1 * MiB);
    expect(UPLOAD_BODY_LIMIT).toBe(UPLOAD_MAX_BYTES + 1 * MiB);
    for (const url of [
      "/research",
      "/research/",
      "/research?index",
      "/research.data",
      "/research/upload",
      "/Research/Upload",
      "/research/upload.data?x=1",
      "/costume",
      "/costume.data",
      "/costume?index",
      "/costume/upload",
      "/tools/club/rulebook",
      "/tools/club/rulebook.data",
      "/tools/club/rulebook/upload",
    ]) {
      expect(bodyLimitFor(url), url).toBe(UPLOAD_BODY_LIMIT);
    }
    for (const url of [
      "/",
      "/auth",
      "/letters",
      "/letters.data",
      "/research/123/file",
      "/research/upload/x",
      "/researchx",
      "/view-research",
      "/costume/photos/1",
      "/costume/upload/x",
      "/view-costumes",
      "/tools/club/locations",
      "/tools/club/rulebook/x",
      "/tools/club/rulebook/upload/x",
      "/tools/messages",
      "/tools/messages/new/x",
      "/tools/messages/newer",
      undefined,
    ]) {
      expect(bodyLimitFor(url), String(url)).toBe(FORM_BODY_LIMIT);
    }
  });

  it("gives the managers' message form room to answer a body far over its length with the field's message", () => {
    expect(LONG_FORM_BODY_LIMIT).toBe(2 * MiB);
    for (const url of [
      "/tools/messages/new",
      "/tools/messages/new/",
      "/tools/messages/new.data",
      "/Tools/Messages/New?x",
    ]) {
      expect(bodyLimitFor(url), url).toBe(LONG_FORM_BODY_LIMIT);
    }
  });

  it("agrees with nginx's client_max_body_size in deploy/nginx", () => {
    const conf = fs.readFileSync("deploy/nginx/hopewell-proxy.conf", "utf8");
    const size = /^client_max_body_size (\d+)m;$/m.exec(conf);
    expect(size, "client_max_body_size in megabytes").not.toBeNull();
    // nginx's "m" is 1024 * 1024 bytes.
    expect(Number(size![1]) * MiB).toBe(UPLOAD_BODY_LIMIT);
  });
});
