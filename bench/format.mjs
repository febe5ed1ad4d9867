// What bench/compare.mjs and bench/compare-dominion.sh share: how JMH names and units read,
// and how a time or a byte count is written in their tables.
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
