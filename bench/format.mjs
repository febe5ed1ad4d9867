// What bench/compare.mjs, compare-polled.mjs and compare-dominion.sh share: how JMH names, units
// and results read, and how a time or a byte count is written in their tables.
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
