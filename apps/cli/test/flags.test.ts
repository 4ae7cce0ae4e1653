import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES, metadata, project, returnlint } from "./helpers.js";

const phantom = path.join(EXAMPLES, "phantom-work", "return.json");
const ESC = "\u001b[";

describe("-c is --config, as in ESLint", () => {
  it("check, scan, rules, explain and print-config read -c as the config file", () => {
    const root = project({ "team.json": { preset: "v7", rules: { artifacts: "off" } }, "r.json": { status: "completed", summary: "s", artifacts: [], metadata: metadata("r") } });
    expect(returnlint(["check", "r.json", "-c", "team.json"], { cwd: root }).status).toBe(0);
    expect(returnlint(["check", "r.json"], { cwd: root }).status).toBe(1);
    expect(JSON.parse(returnlint(["print-config", "-c", "team.json"], { cwd: root }).stdout)).toMatchObject({ config: path.join(root, "team.json"), preset: "v7" });
    expect(returnlint(["rules", "-c", "team.json"], { cwd: root }).stdout).toMatch(/^artifacts +error +error +error +error +off +error +off +/m);
    expect(returnlint(["explain", "artifacts", "-c", "team.json"], { cwd: root }).status).toBe(0);
    expect(returnlint(["scan", "-c", "team.json"], { cwd: project({ "specs/1_a/.return-meta.json": { status: "researched", artifacts: [], metadata: metadata("r") }, "team.json": { rules: { artifacts: "off" } } }) }).status).toBe(0);
  });

  it("a -c naming a command instead of a file says how to name the command", () => {
    const run = returnlint(["check", phantom, "-c", "research"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('returnlint: --config "research" is not a file. -c is --config (as in ESLint); to name the command, write --command research.\n');
  });
});

describe("--command is checked against the commands returnlint knows", () => {
  it("a misspelt command is a usage error with the nearest name, before any rule runs", () => {
    for (const command of ["check", "scan", "print-config"]) {
      const args = command === "check" ? ["check", phantom] : [command];
      const run = returnlint([...args, "--command", "reserch"], { cwd: command === "scan" ? project({ "specs/1_a/.return-meta.json": {} }) : undefined });
      expect(run.status, command).toBe(2);
      expect(run.stdout, command).toBe("");
      expect(run.stderr, command).toBe(
        'returnlint: Unknown command "reserch" (did you mean "research"?); known: research, plan, revise, implement. A command of your own needs an entry under "commands" in a returnlint.config.json (an empty one is enough: "reserch": {}).\n',
      );
    }
  });

  it("a command of your own is known once the config lists it, or an agent maps to it", () => {
    const root = project({
      "returnlint.config.yaml": "commands:\n  review: {}\nagents:\n  auditor: audit\n",
      "r.json": { status: "partial", summary: "s", artifacts: [], metadata: metadata("r"), errors: [{ type: "t", message: "m", recoverable: true, recommendation: "r" }] },
    });
    expect(returnlint(["check", "r.json", "--command", "review"], { cwd: root }).status).toBe(0);
    expect(returnlint(["check", "r.json", "--command", "audit"], { cwd: root }).status).toBe(0);
    const typo = returnlint(["check", "r.json", "--command", "reviw"], { cwd: root });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('Unknown command "reviw" (did you mean "review"?); known: research, plan, revise, implement, review, audit. A command of your own needs an entry under "commands" in returnlint.config.yaml');
  });
});

describe("colours: --color, --no-color, FORCE_COLOR, NO_COLOR", () => {
  const tagged = (stdout: string) => stdout.includes(`${ESC}36m[INFO]${ESC}39m`) && stdout.includes(`${ESC}31m[FAIL]${ESC}39m`);

  it("off in a pipe by default; --color and FORCE_COLOR turn them on, even over NO_COLOR", () => {
    expect(returnlint(["check", phantom]).stdout).not.toContain(ESC);
    expect(tagged(returnlint(["check", phantom, "--color"]).stdout)).toBe(true);
    expect(tagged(returnlint(["check", phantom], { env: { FORCE_COLOR: "1" } }).stdout)).toBe(true);
    expect(tagged(returnlint(["check", phantom], { env: { FORCE_COLOR: "", NO_COLOR: "1" } }).stdout)).toBe(true);
  });

  it("--no-color and FORCE_COLOR=0 turn them off; both flags at once is a usage error", () => {
    expect(returnlint(["check", phantom, "--no-color"], { env: { FORCE_COLOR: "1" } }).stdout).not.toContain(ESC);
    expect(returnlint(["check", phantom, "--color"], { env: { FORCE_COLOR: "0" } }).stdout).toContain(ESC);
    expect(returnlint(["check", phantom], { env: { FORCE_COLOR: "0" } }).stdout).not.toContain(ESC);
    expect(returnlint(["check", phantom], { env: { FORCE_COLOR: "false" } }).stdout).not.toContain(ESC);
    const both = returnlint(["check", phantom, "--color", "--no-color"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe("returnlint: --color and --no-color contradict each other: give one.\n");
  });

  it("never colours a file written with -o, nor JSON", () => {
    const root = project({});
    const run = returnlint(["check", phantom, "--color", "-f", "stylish", "-o", path.join(root, "out.txt"), "-f", "json"]);
    expect(run.stdout).not.toContain(ESC);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false });
  });

  it("scan colours its failure lines and verdict", () => {
    const root = project({ "specs/1_a/.return-meta.json": { status: "researched", artifacts: [], metadata: metadata("r") } });
    const plain = returnlint(["scan"], { cwd: root });
    expect(plain.stdout).not.toContain(ESC);
    const coloured = returnlint(["scan", "--color"], { cwd: root });
    expect(coloured.stdout).toContain(`${ESC}31m[FAIL]${ESC}39m specs/1_a/.return-meta.json: `);
    expect(coloured.stdout).toContain(`${ESC}31m[FAIL]${ESC}39m 1 of 1 return below specs failed validation`);
    expect(returnlint(["scan"], { cwd: root, env: { FORCE_COLOR: "1" } }).stdout).toContain(`${ESC}31m[FAIL]`);
    expect(returnlint(["scan", "-f", "json", "--color"], { cwd: root }).stdout).not.toContain(ESC);
  });
});
