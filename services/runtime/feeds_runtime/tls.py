"""TLS for the gRPC calls between the gateway and the services (docs/architecture.md, "Service
calls"): a server asks every caller for a certificate signed by the platform's CA and refuses the
handshake without one; a channel checks the service's certificate against the same CA and presents
the process's own. Certificates are read from files and read again when the files change, so a
rotation (cert-manager renewing a Secret) needs no restart: a server picks the new pair up at the
next handshake, the gateway at its next call (gateway.clients)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

import grpc

log = logging.getLogger("feeds.tls")


@dataclass(frozen=True)
class TlsFiles:
    cert: str
    key: str
    ca: str

    def stamp(self) -> tuple[tuple[int, int], ...]:
        """What changes when any of the files is replaced (a Secret volume swaps a symlink)."""
        stamps = []
        for path in (self.cert, self.key, self.ca):
            try:
                status = os.stat(path)
            except OSError:
                stamps.append((0, 0))
                continue
            stamps.append((status.st_mtime_ns, status.st_ino))
        return tuple(stamps)

    def read(self) -> tuple[bytes, bytes, bytes]:
        """(certificate chain, key, CA), each PEM."""
        with open(self.cert, "rb") as cert, open(self.key, "rb") as key, open(self.ca, "rb") as ca:
            return cert.read(), key.read(), ca.read()


def server_credentials(files: TlsFiles) -> grpc.ServerCredentials:
    """mTLS for a server: the caller's certificate is required and checked against the CA. The files
    are looked at before each handshake and read again once they changed; a pair that cannot be read
    (a rotation half done) leaves the current one in place until the next handshake."""
    seen = files.stamp()

    def configuration() -> grpc.ServerCertificateConfiguration:
        cert, key, ca = files.read()
        return grpc.ssl_server_certificate_configuration([(key, cert)], root_certificates=ca)

    def fetch() -> grpc.ServerCertificateConfiguration | None:
        nonlocal seen
        stamp = files.stamp()
        if stamp == seen:
            return None
        try:
            renewed = configuration()
        except (OSError, ValueError):
            log.warning("gRPC certificate files changed but cannot be read yet", exc_info=True)
            return None
        seen = stamp
        log.info("gRPC certificate reloaded", extra={"cert": files.cert})
        return renewed

    # The fetcher's None (no change) is documented; the stubs type only a configuration.
    return grpc.dynamic_ssl_server_credentials(configuration(), fetch,  # type: ignore[arg-type]
                                               require_client_authentication=True)


def channel_credentials(files: TlsFiles) -> grpc.ChannelCredentials:
    """mTLS for a channel: the service's certificate checked against the CA, the process's own presented."""
    cert, key, ca = files.read()
    return grpc.ssl_channel_credentials(root_certificates=ca, private_key=key, certificate_chain=cert)
