# svc-gateway container: build the single binary, then ship it alone on a distroless base (glibc, CA roots,
# /etc/passwd with the nonroot user; no shell, no package manager). State lives under /data (config, usage,
# chat history): mount a volume there. tests/ops-container/ assembles this same root filesystem and runs it.

FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build \
 && mkdir -p /rootfs/data \
 && chown 65532:65532 /rootfs/data \
 && chmod 0700 /rootfs/data

FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /src/dist/svc-gateway /usr/local/bin/svc-gateway
COPY --from=build --chown=65532:65532 /rootfs/data /data
# BUN_CONFIG_MAX_HTTP_REQUESTS: Bun's outgoing-request cap lifted from the start, so the server needs no re-exec to
# lift it (a faster cold start, docs/PERFORMANCE.md "Cold start").
ENV SVC_CONFIG_PATH=/data/config.json \
    SVC_DATA_DIR=/data \
    SVC_HOST=0.0.0.0 \
    PORT=5001 \
    BUN_CONFIG_MAX_HTTP_REQUESTS=65535
USER 65532:65532
WORKDIR /data
VOLUME ["/data"]
EXPOSE 5001
# `probe` GETs /healthz on the local port: no shell or curl needed in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/usr/local/bin/svc-gateway", "probe"]
ENTRYPOINT ["/usr/local/bin/svc-gateway"]
CMD ["serve"]
