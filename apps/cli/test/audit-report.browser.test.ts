/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commit, git, knownHistory, newRepository, returnMeta, scratchDir } from "./git-history.js";
import { returnlint } from "./helpers.js";

// Debian's Chromium (apt-get install -y chromium; .ci/run installs it). Playwright never downloads a browser here.
const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`audit-report.browser.test.ts: skipped, ${CHROMIUM} is absent (install it with: apt-get install -y chromium)`);

/** The screenshot kept for people to look at: gitignored. */
const SCREENSHOT = fileURLToPath(new URL("artifacts/audit-report.png", import.meta.url));

const HOSTILE_AGENT = "</script><script>window.__pwned = 1</script>";
const HOSTILE_FOLDER = 'specs/14_<img src=x onerror="window.__pwned=2">';
const HOSTILE_STATUS = "\"><svg onload='window.__pwned=3'>";

interface Rendered {
  readonly type: string;
  readonly datasets: number;
  readonly marks: number[];
  readonly painted: number;
}

describe.skipIf(!haveChromium)(`the HTML report in a real headless Chromium (${CHROMIUM})`, () => {
  let context: BrowserContext | undefined;
  const browser = (): BrowserContext => {
    if (context === undefined) throw new Error("Chromium did not start (see the error of beforeAll)");
    return context;
  };
  let report: string;
  let html: string;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const { dir } = knownHistory();
    // A return whose agent, folder and status try to inject script into the page.
    commit(dir, "2025-05-01T09:00:00Z", {
      files: { [`${HOSTILE_FOLDER}/.return-meta.json`]: returnMeta(HOSTILE_STATUS, [`${HOSTILE_FOLDER}/r.md`], HOSTILE_AGENT, "research") },
    });
    git(dir, ["remote", "add", "origin", "https://github.com/acme/agents.git"]);
    report = path.join(scratchDir(), "audit.html");
    const run = returnlint(["audit", dir, "--format", "html", "-o", report]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    html = readFileSync(report, "utf8");

    const profile = scratchDir();
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1280, height: 900 },
    });
    // Nothing may leave the page: any request but the file itself is recorded and refused.
    await browser().route("**/*", async (route) => {
      const url = route.request().url();
      if (url.startsWith("file://")) await route.continue();
      else {
        requests.push(url);
        await route.abort();
      }
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it("renders both charts with their marks, no console error, no request, and keeps a screenshot", async () => {
    const page = await browser().newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto(`file://${report}`);
    await page.waitForFunction(() => {
      const chart = (window as unknown as { Chart?: { getChart(canvas: Element | null): unknown } }).Chart;
      return chart?.getChart(document.getElementById("phantom-chart")) !== undefined && chart.getChart(document.getElementById("rules-chart")) !== undefined;
    });
    const rendered = await page.evaluate((): Record<string, Rendered> => {
      type Meta = { data: unknown[] };
      type ChartObject = { config: { type: string }; data: { datasets: unknown[] }; getDatasetMeta(index: number): Meta };
      const Chart = (window as unknown as { Chart: { getChart(canvas: HTMLCanvasElement): ChartObject } }).Chart;
      const describe = (id: string): Rendered => {
        const canvas = document.getElementById(id) as HTMLCanvasElement;
        const chart = Chart.getChart(canvas);
        const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let painted = 0;
        for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) painted += 1;
        return { type: chart.config.type, datasets: chart.data.datasets.length, marks: chart.data.datasets.map((_, index) => chart.getDatasetMeta(index).data.length), painted };
      };
      return { phantom: describe("phantom-chart"), rules: describe("rules-chart") };
    });
    // Five agents (one of them "(no agent)") and "all agents"; one point per month from January to May.
    expect(rendered.phantom).toMatchObject({ type: "line", datasets: 6, marks: [5, 5, 5, 5, 5, 5] });
    // artifacts, status-enum, json-structure: one bar each.
    expect(rendered.rules).toMatchObject({ type: "bar", datasets: 1, marks: [3] });
    expect(rendered.phantom?.painted).toBeGreaterThan(5_000);
    expect(rendered.rules?.painted).toBeGreaterThan(1_000);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows what the repository says as text: a hostile agent name, folder or status runs no script", async () => {
    const page = await browser().newPage();
    page.on("dialog", (dialog) => {
      consoleErrors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`file://${report}`);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const hostileRow = page.locator("#returns tbody tr").filter({ hasText: "14_<img" });
    await expect.poll(() => hostileRow.count()).toBe(1);
    const cells = await hostileRow.locator("td").allTextContents();
    expect(cells).toContain(HOSTILE_AGENT);
    expect(cells).toContain(HOSTILE_STATUS);
    expect(cells.join(" ")).toContain(`${HOSTILE_FOLDER}/.return-meta.json`);
    // The markup itself: no element the repository's strings tried to open, and links only to the forge.
    expect(await page.locator("body script").count()).toBe(3);
    expect(await page.locator("img, svg, iframe").count()).toBe(0);
    const hrefs = await page.locator("a").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(14);
    // Links lead to the forge, or to a month of the table of returns on the page itself.
    expect(hrefs.filter((href) => !/^https:\/\/github\.com\/acme\/agents(?:\/|$)/.test(href) && !/^#returns-\d{4}-\d{2}$/.test(href))).toEqual([]);
    expect(html).not.toContain("<script>window.__pwned");
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 60_000);

  it("fits the phantom axis to rates under 10 %, draws each legend swatch as its line, and lists every return in date order on the page", async () => {
    // 21 returns in January, one of them phantom work (4.8 %), and 20 in February, committed after
    // January's work but before it in history order.
    const dir = newRepository();
    const research = (month: string, n: number) => returnMeta("researched", [`docs/${month}-${String(n)}.md`], "research-agent", "research");
    const month = (name: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, n) => [`specs/${name}${String(n)}_x/.return-meta.json`, research(name, n)]));
    const written = (name: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, n) => [`docs/${name}-${String(n)}.md`, "# Report\n"]));
    commit(dir, "2025-02-10T09:00:00Z", { files: { ...month("2025-02-", 20), ...written("2025-02-", 20) } });
    commit(dir, "2025-01-10T09:00:00Z", { files: { ...month("2025-01-", 21), ...written("2025-01-", 20) } });
    const small = path.join(scratchDir(), "small.html");
    expect(returnlint(["audit", dir, "--format", "html", "-o", small]).status).toBe(0);

    const page = await browser().newPage();
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto(`file://${small}`);
    await page.waitForFunction(() => (window as unknown as { Chart?: { getChart(canvas: Element | null): unknown } }).Chart?.getChart(document.getElementById("phantom-chart")) !== undefined);
    const chart = await page.evaluate(() => {
      type Item = { text: string; pointStyle: string; lineWidth: number; lineDash?: number[] };
      type ChartObject = { scales: { y: { max: number } }; data: { datasets: { data: (number | null)[] }[] }; legend: { legendItems: Item[] } };
      const Chart = (window as unknown as { Chart: { getChart(canvas: Element | null): ChartObject } }).Chart;
      const drawn = Chart.getChart(document.getElementById("phantom-chart"));
      return {
        top: drawn.scales.y.max,
        highest: Math.max(...drawn.data.datasets.flatMap((dataset) => dataset.data.filter((value): value is number => value !== null))),
        legend: drawn.legend.legendItems.map((item) => ({ text: item.text, pointStyle: item.pointStyle, lineWidth: item.lineWidth, dashed: (item.lineDash ?? []).length > 0 })),
      };
    });
    expect(chart.highest).toBe(4.8);
    expect(chart.top).toBe(10);
    expect(chart.legend).toEqual([
      { text: "research-agent", pointStyle: "line", lineWidth: 2, dashed: false },
      { text: "all agents", pointStyle: "line", lineWidth: 4, dashed: false },
    ]);

    const dates = await page.locator("#returns tbody td.date").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("data-sort") ?? ""));
    expect(dates).toHaveLength(41);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]).toBe("2025-01-10T09:00:00.000Z");
    // The page scrolls, not a box inside it.
    const boxed = await page.locator("#returns").evaluate((table) => {
      const boxes: string[] = [];
      for (let node = table.parentElement; node !== null; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (/auto|scroll/.test(style.overflowY) || style.maxHeight !== "none") boxes.push(node.tagName);
      }
      return boxes;
    });
    expect(boxed).toEqual([]);

    // A month link brings its first return to the top of the window.
    await page.locator('nav.months a[href="#returns-2025-02"]').click();
    const top = await page.locator("#returns-2025-02").evaluate((row) => row.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(80);
    expect(await page.locator("#returns-2025-02 td.date").textContent()).toBe("2025-02-10 09:00");

    // The verdict and text filters keep the rows that match.
    expect(await page.locator("#verdict-filter option").allTextContents()).toEqual(["every verdict (41)", "phantom (1)", "passed (40)"]);
    await page.selectOption("#verdict-filter", "phantom");
    const visible = () => page.locator("#returns tbody tr:visible td.path").allTextContents();
    expect(await visible()).toEqual(["specs/2025-01-20_x/.return-meta.json"]);
    expect(await page.locator("#shown-count").textContent()).toBe("showing 1 of 41");
    await page.selectOption("#verdict-filter", "");
    await page.fill("#text-filter", "02-1_X");
    expect(await visible()).toEqual(["specs/2025-02-1_x/.return-meta.json"]);
    await page.fill("#text-filter", "");
    expect(await visible()).toHaveLength(41);
    await page.close();
  }, 60_000);

  it("sorts the table of returns by a column, both ways", async () => {
    const page = await browser().newPage();
    await page.goto(`file://${report}`);
    const firstDate = () => page.locator("#returns tbody tr:first-child td:first-child").textContent();
    expect(await firstDate()).toBe("2025-01-10 09:00");
    const header = page.locator("#returns thead th").filter({ hasText: "date (UTC)" });
    await header.locator("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("ascending");
    expect(await firstDate()).toBe("2025-01-10 09:00");
    await header.locator("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("descending");
    expect(await firstDate()).toBe("2025-05-01 09:00");
    // The verdict column sorts phantom work together.
    await page.locator("#returns thead th").filter({ hasText: "verdict" }).locator("button").click();
    await page.locator("#returns thead th").filter({ hasText: "verdict" }).locator("button").click();
    const verdicts = await page.locator("#returns tbody td.verdict").allTextContents();
    expect(verdicts.slice(0, 5)).toEqual([...Array<string>(4).fill("phantom"), "failed"]);
    await page.close();
  }, 60_000);
});
