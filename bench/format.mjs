// What bench/compare.mjs, compare-polled.mjs, compare-builder.mjs and compare-dominion.sh share:
// how JMH names, units and results read, how a time, a byte count or a ratio is written in their
// tables, and the table of a comparison with gdx-ai (compare-polled.mjs, compare-builder.mjs).
import { readFileSync } from "node:fs";

export const PKG = "dev.enginestates.bench.";
export const toNs = { "ns/op": 1, "us/op": 1e3, "µs/op": 1e3, "ms/op": 1e6, "s/op": 1e9 };

export const time = (ns) => {
    if (ns == null || Number.isNaN(ns)) {
        return "—";
    }
    if (ns < 1e3) {
        return `${ns < 10 ? ns.toFixed(1) : Math.round(ns)} ns`;
    }
    if (ns < 1e6) {
        return `${(ns / 1e3).toPrecision(3)} µs`;
    }
    return `${(ns / 1e6).toPrecision(3)} ms`;
};

export const bytes = (b) => {
    if (b == null) {
        return "—";
    }
    if (b < 1) {
        return b < 0.05 ? "0 B" : `${b.toFixed(1)} B`;
    }
    if (b < 1e3) {
        return `${Math.round(b)} B`;
    }
    if (b < 1e6) {
        return `${(b / 1e3).toPrecision(3)} kB`;
    }
    return `${(b / 1e6).toPrecision(3)} MB`;
};

/** The JMH JSON results named by the script's first argument; without one, prints the usage and exits. */
export function readJmh(usage) {
    const [file] = process.argv.slice(2);
    if (!file) {
        console.error(`usage: ${usage}`);
        process.exit(2);
    }
    return JSON.parse(readFileSync(file, "utf8"));
}

/**
 * One benchmark's figures from JMH's JSON results: the mean from its AverageTime run (else from
 * its Timed twin's meanNs), p50 and p99 from the Timed twin (see StepTimes.java: one value an
 * iteration in rawData, averaged here), and B/op from -prof gc; null when neither ran.
 */
export function figures(jmh, bench, params = {}) {
    const find = (name) => jmh.find((r) => r.benchmark === PKG + name
        && Object.entries(params).every(([k, v]) => String(r.params?.[k]) === String(v)));
    const plain = find(bench);
    const timed = find(bench + "Timed");
    if (!plain && !timed) {
        return null;
    }
    const perIteration = (r, key) => {
        const m = r?.secondaryMetrics?.[key];
        if (!m) {
            return null;
        }
        const values = m.rawData.flat();
        return values.reduce((x, y) => x + y, 0) / values.length;
    };
    const alloc = (r) => {
        const m = r?.secondaryMetrics?.["gc.alloc.rate.norm"] ?? r?.secondaryMetrics?.["·gc.alloc.rate.norm"];
        return m ? m.score : null;
    };
    return {
        mean: plain ? plain.primaryMetric.score * (toNs[plain.primaryMetric.scoreUnit] ?? NaN) : perIteration(timed, "meanNs"),
        meanFrom: plain ? "avgt" : "timed",
        p50: perIteration(timed, "p50Ns"),
        p99: perIteration(timed, "p99Ns"),
        bytes: alloc(plain) ?? alloc(timed),
    };
}

/** a ÷ b as "24×" (three significant digits from 100× up), or "—" when either is missing. */
export const ratio = (a, b) => (a == null || b == null || !(b > 0) ? "—" : `${(a / b).toPrecision(a / b >= 100 ? 3 : 2)}×`);

/** A benchmark's figures divided by n (a step of n machines, per machine): times only. */
export const per = (f, n) => (f ? { ...f, mean: f.mean == null ? null : f.mean / n, p99: f.p99 == null ? null : f.p99 / n, bytes: null } : null);

/** Whether a benchmark allocates nothing: JMH's own per-iteration bytes spread over the operations stay under 1 B; null without B/op. */
export const zero = (f) => (f?.bytes == null ? null : f.bytes < 1);

/** A target's verdict: "met", "**missed**", or "—" when the figure is missing. */
export const verdict = (ok) => (ok == null ? "—" : ok ? "met" : "**missed**");

/**
 * The Markdown table of a comparison with gdx-ai run in the same JMH harness: one row a case,
 * engine-states' mean, p99 and B/op (es), gdx-ai's (peer), and the ratios engine-states / gdx-ai.
 * Rows with neither figure are left out; returns the table's lines and the labels left out.
 */
export function peerTable(rows) {
    const lines = [
        "| case | engine-states mean | p99 | B/op | gdx-ai mean | p99 | B/op | ratio mean | ratio p99 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ];
    const missing = [];
    for (const { label, es, peer } of rows) {
        if (!es && !peer) {
            missing.push(label);
            continue;
        }
        lines.push(`| ${label} | ${time(es?.mean)} | ${time(es?.p99)} | ${bytes(es?.bytes)} | `
            + `${time(peer?.mean)} | ${time(peer?.p99)} | ${bytes(peer?.bytes)} | ${ratio(es?.mean, peer?.mean)} | ${ratio(es?.p99, peer?.p99)} |`);
    }
    const timedMeans = rows.some((r) => r.es?.meanFrom === "timed" || r.peer?.meanFrom === "timed");
    return { lines, missing, timedMeans };
}
