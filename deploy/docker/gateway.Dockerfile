# syntax=docker/dockerfile:1
# The REST gateway (no database, no domain logic).
# Built from the repository root: docker build -f deploy/docker/gateway.Dockerfile -t feeds/gateway .
ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /src
# The contracts (generated code, kept up to date in the repository), the shared runtime, the gateway.
COPY protos/pyproject.toml protos/
COPY protos/gen/python protos/gen/python
COPY services/runtime services/runtime
COPY services/gateway services/gateway
# Regular (not editable) installs, compiled now because the root filesystem is read-only at run time.
RUN /opt/venv/bin/pip install ./protos ./services/runtime ./services/gateway \
 && /opt/venv/bin/python -m compileall -q /opt/venv/lib

FROM ${PYTHON_IMAGE}
RUN groupadd --system --gid 10001 feeds \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /tmp --shell /usr/sbin/nologin feeds
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/tmp
WORKDIR /tmp
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["feeds-gateway"]
CMD ["server"]
