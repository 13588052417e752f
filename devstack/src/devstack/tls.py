"""The dev CA: certificates for the gRPC calls of `make run` and the tests, so they run with mTLS on,
the path production takes (docs/architecture.md, "Service calls").

Made once in `.data/tls/` and kept, for `make run`, the tests and the benchmarks alike: a CA,
and for each name a certificate whose subject common name is the caller identity (`gateway`,
`timeline`, `devstack` for the dev tools and tests), valid for serving on localhost and 127.0.0.1 as
well as for calling. Dev only: the CA's key lies next to it in the clear."""

from __future__ import annotations

import datetime
import ipaddress
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import grpc
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from devstack import DATA_DIR
from feeds_runtime.tls import TlsFiles, channel_credentials

# The identity of dev tools and tests calling a service directly; `make run` and the tests grant it
# every tenant, as the gateway.
TOOLS = "devstack"
CA_DAYS, CERT_DAYS = 3650, 365


def _write(path: Path, data: bytes) -> None:
    """Atomically, so a process starting meanwhile never reads half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
        handle.write(data)
    os.chmod(handle.name, 0o600)
    os.replace(handle.name, path)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "feeds dev"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


@dataclass(frozen=True)
class DevCa:
    folder: Path

    @property
    def ca_file(self) -> Path:
        return self.folder / "ca.pem"

    def issue(self, name: str, *, hosts: tuple[str, ...] = ()) -> TlsFiles:
        """The certificate of `name` (made on first use, signed by this folder's CA)."""
        cert, key = self.folder / f"{name}.pem", self.folder / f"{name}-key.pem"
        if not (cert.exists() and key.exists()):
            ca_cert, ca_key = self._ca()
            leaf_key = ec.generate_private_key(ec.SECP256R1())
            now = datetime.datetime.now(datetime.UTC)
            names: list[x509.GeneralName] = [x509.DNSName(name), x509.DNSName("localhost"),
                                             x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                             *(x509.DNSName(host) for host in hosts)]
            leaf = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(ca_cert.subject)
                    .public_key(leaf_key.public_key()).serial_number(x509.random_serial_number())
                    .not_valid_before(now - datetime.timedelta(minutes=5))
                    .not_valid_after(now + datetime.timedelta(days=CERT_DAYS))
                    .add_extension(x509.SubjectAlternativeName(names), critical=False)
                    .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                    .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                          ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
                    .sign(ca_key, hashes.SHA256()))
            _write(key, _key_pem(leaf_key))
            _write(cert, leaf.public_bytes(serialization.Encoding.PEM))
        return TlsFiles(str(cert), str(key), str(self.ca_file))

    def _ca(self) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
        key_file = self.folder / "ca-key.pem"
        if not (self.ca_file.exists() and key_file.exists()):
            key = ec.generate_private_key(ec.SECP256R1())
            now = datetime.datetime.now(datetime.UTC)
            name = _name(f"feeds dev CA {self.folder.resolve()}"[:64])
            cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                    .serial_number(x509.random_serial_number())
                    .not_valid_before(now - datetime.timedelta(minutes=5))
                    .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
                    .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                    .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                                 content_commitment=False, key_encipherment=False,
                                                 data_encipherment=False, key_agreement=False, encipher_only=False,
                                                 decipher_only=False), critical=True)
                    .sign(key, hashes.SHA256()))
            _write(key_file, _key_pem(key))
            _write(self.ca_file, cert.public_bytes(serialization.Encoding.PEM))
        ca_key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
        assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
        return x509.load_pem_x509_certificate(self.ca_file.read_bytes()), ca_key

    def env(self, name: str) -> dict[str, str]:
        """The variables that give a process `name`'s certificate (feeds_runtime.settings.GrpcTlsSettings)."""
        files = self.issue(name)
        return {"GRPC_TLS_CERT_FILE": files.cert, "GRPC_TLS_KEY_FILE": files.key, "GRPC_TLS_CA_FILE": files.ca}

    def channel(self, address: str, name: str = TOOLS) -> grpc.Channel:
        """A channel to a service of this CA, calling as `name`."""
        return grpc.secure_channel(address, channel_credentials(self.issue(name)))


def callers_env(services: tuple[str, ...], *grantees: str) -> dict[str, str]:
    """`<SERVICE>_GRPC_CALLERS` granting every tenant to the gateway and `grantees`."""
    grants = ", ".join(f'"{name}": "*"' for name in ("gateway", *grantees))
    return {f"{service.upper()}_GRPC_CALLERS": f"{{{grants}}}" for service in services}


DEV_CA = DevCa(DATA_DIR / "tls")
