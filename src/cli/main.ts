#!/usr/bin/env node
/**
 * The `hindsight` executable. Node 22 and later keep compiled code between runs, so a one-shot
 * command starts faster (the cache lives in the OS temp directory); it must be switched on
 * before the command line's modules load, hence this file (Node 20 has no such cache).
 */
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// The command line's modules as one bundle (scripts/bundle-cli.mjs: one file to load instead of
// dozens); the path is a variable because the bundle exists only after the build.
const PROGRAM = "./bundle/program.js";
await import(PROGRAM);
