# syntax=docker/dockerfile:1
# The timeline service: one image for its server, worker, relay and migrate processes.
# Built from the repository root: docker build -f deploy/docker/timeline.Dockerfile -t feeds/timeline .
ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /src
# The contracts (generated code, kept up to date in the repository), the shared runtime, the service.
COPY protos/pyproject.toml protos/
COPY protos/gen/python protos/gen/python
COPY services/runtime services/runtime
COPY services/timeline services/timeline
# Regular (not editable) installs, compiled now because the root filesystem is read-only at run time.
RUN /opt/venv/bin/pip install ./protos ./services/runtime ./services/timeline \
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
# The process kind is the argument: server (default), worker, relay or migrate.
ENTRYPOINT ["feeds-timeline"]
CMD ["server"]
