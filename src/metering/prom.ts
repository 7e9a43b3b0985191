// The prom-client classes and the default process metrics the gateway uses, required from their own files: the package's index also loads
// its Pushgateway (node:http, node:https, node:zlib, node:url), default metrics and cluster aggregator, ≈ 65 ms of
// a cold start the gateway never needs (issue 35). Same classes, same behaviour; the types are the package's.
import type * as Prom from "prom-client";

/* eslint-disable @typescript-eslint/no-require-imports */
export const Registry = require("prom-client/lib/registry") as typeof Prom.Registry;
export const Counter = require("prom-client/lib/counter") as typeof Prom.Counter;
export const Gauge = require("prom-client/lib/gauge") as typeof Prom.Gauge;
export const Histogram = require("prom-client/lib/histogram") as typeof Prom.Histogram;
// The process metrics the operator's /metrics shows (issue 31); their module loads no network code.
export const collectDefaultMetrics = require("prom-client/lib/defaultMetrics") as typeof Prom.collectDefaultMetrics;
export type Registry = Prom.Registry;
export type Counter<T extends string = string> = Prom.Counter<T>;
export type Gauge<T extends string = string> = Prom.Gauge<T>;
export type Histogram<T extends string = string> = Prom.Histogram<T>;
