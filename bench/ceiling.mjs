// The ceiling for the benchmark: a bare node:http server answering every request with
// the same bytes from memory. Usage: node bench/ceiling.mjs <file> <port>
import fs from "node:fs";
import http from "node:http";

const [file, port] = process.argv.slice(2);
const body = fs.readFileSync(file);
http
  .createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
