// The Node adapter's entry: TypeScript through tsx, then the engine protocol on stdin/stdout.
import { register } from "tsx/esm/api";

register();
const { serveStdio } = await import("./node-adapter.ts");
serveStdio();
