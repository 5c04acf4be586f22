// require("ctxbench") from CommonJS. ctxbench is an ES module; Node 20.19 and later load it here
// synchronously (require of an ES module without top-level await) and give its namespace.
"use strict";
try {
  module.exports = require("./dist/harness/index.js");
} catch (error) {
  if (error && error.code === "ERR_REQUIRE_ESM") {
    throw new Error(`ctxbench is an ES module: require("ctxbench") needs Node 20.19 or later with require of ES modules enabled (this is ${process.version}); use import("ctxbench") instead`);
  }
  throw error;
}
