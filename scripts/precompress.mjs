// After `react-router build`: writes brotli (best quality) and gzip copies of the client
// assets next to them, which the server sends to browsers that accept them, instead of
// compressing the same files again on every request at a lower quality.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// The client folder of the build just made (build.mjs gives it; build/client when run alone).
const ROOT = path.resolve(process.argv[2] ?? "build/client");
const COMPRESSIBLE = /\.(js|mjs|css|svg|html|json|txt|map)$/;
let files = 0;
for (const name of fs.readdirSync(ROOT, { recursive: true }).map(String)) {
  const file = path.join(ROOT, name);
  if (!COMPRESSIBLE.test(file) || !fs.statSync(file).isFile()) continue;
  const bytes = fs.readFileSync(file);
  if (bytes.length < 1024) continue;
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  files++;
}
console.log(`Precompressed ${files} client files.`);
